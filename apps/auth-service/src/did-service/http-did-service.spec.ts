import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadGatewayError, ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import {
  startDidServiceStandIn,
  STAND_IN_CLIENT_ID,
  STAND_IN_HOLDER_DID,
  STAND_IN_PROFILE_VP,
  type DidServiceStandIn,
} from '../testing/did-service-stand-in.js';
import { newInternalApiToken } from '../testing/start-auth-service.js';
import { HttpDidService } from './http-did-service.js';

describe('HttpDidService: auth-service’s one adapter to did-service', () => {
  const token = newInternalApiToken();
  let standIn: DidServiceStandIn;
  let didService: HttpDidService;

  beforeAll(async () => {
    standIn = await startDidServiceStandIn(token);
    didService = new HttpDidService({
      baseUrl: standIn.url,
      internalApiToken: token,
      oid4vpTimeoutMs: 2_000,
    });
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('checks a login VP, makes a request object, judges an answer and revokes', async () => {
    await expect(didService.verifyLoginVp(standIn.loginVpFor('alice'), 300)).resolves.toMatchObject(
      { userId: 'alice', holder: STAND_IN_HOLDER_DID },
    );
    await expect(
      didService.oid4vpRequestObject({ state: 's', nonce: 'n', responseUri: 'https://x/r' }),
    ).resolves.toMatchObject({ clientId: STAND_IN_CLIENT_ID });
    await expect(
      didService.oid4vpVerifyResponse({
        vpToken: standIn.vpTokenFor('alice', 'n'),
        nonce: 'n',
        clientId: STAND_IN_CLIENT_ID,
      }),
    ).resolves.toEqual({ verified: true, userId: 'alice', holder: STAND_IN_HOLDER_DID });
    await expect(didService.revokeCredentials({ userId: 'alice', issuedBefore: 1 })).resolves.toBe(
      0,
    );
  });

  it('checks a presentation request’s jwt_vc_json VP: its VCs, or did-service’s refusal', async () => {
    const input = { nonce: 'n', clientId: 'x509_san_dns:api.example.test' };
    await expect(
      didService.verifyPresentationVp({ vp: STAND_IN_PROFILE_VP, ...input }),
    ).resolves.toEqual({
      verified: true,
      holder: STAND_IN_HOLDER_DID,
      credentials: [
        {
          issuer: expect.stringMatching(/^did:ethr:/),
          type: ['VerifiableCredential', 'Profile'],
          credentialSubject: { id: STAND_IN_HOLDER_DID, name: 'Alice' },
        },
      ],
    });
    await expect(
      didService.verifyPresentationVp({ vp: 'another.vp.jwt', ...input }),
    ).resolves.toEqual({
      verified: false,
      error: { code: 'wrong_nonce', message: 'The presentation does not carry the nonce' },
    });
    standIn.setBroken(true);
    try {
      await expect(
        didService.verifyPresentationVp({ vp: STAND_IN_PROFILE_VP, ...input }),
      ).rejects.toThrow(
        new BadGatewayError(
          'did-service answered presentation-requests/verify-vp with an unexpected body',
        ),
      );
    } finally {
      standIn.setBroken(false);
    }
  });

  it('passes a refusal on: a refused VP is 401, a refused answer is verified: false', async () => {
    await expect(didService.verifyLoginVp({}, 300)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(
      didService.oid4vpVerifyResponse({ vpToken: 'x', nonce: 'n', clientId: STAND_IN_CLIENT_ID }),
    ).resolves.toEqual({
      verified: false,
      error: { code: 'invalid_vp', message: 'The presentation does not verify' },
    });
  });

  it('is 503 when did-service is down, 502 when it answers an unexpected body', async () => {
    standIn.setDown(true);
    try {
      await expect(didService.verifyLoginVp({}, 300)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    } finally {
      standIn.setDown(false);
    }
    standIn.setBroken(true);
    try {
      await expect(didService.verifyLoginVp({}, 300)).rejects.toThrow(
        new BadGatewayError('did-service answered verify-login-vp with an unexpected body'),
      );
      await expect(
        didService.oid4vpRequestObject({ state: 's', nonce: 'n', responseUri: 'https://x/r' }),
      ).rejects.toBeInstanceOf(BadGatewayError);
      await expect(
        didService.revokeCredentials({ userId: 'alice', issuedBefore: 1 }),
      ).rejects.toBeInstanceOf(BadGatewayError);
    } finally {
      standIn.setBroken(false);
    }
  });

  it('is 503 for every call, naming what is not configured, without URL or token', async () => {
    const unconfigured = new HttpDidService({ baseUrl: undefined, internalApiToken: token });
    await expect(unconfigured.verifyLoginVp({}, 300)).rejects.toThrow(
      'Login with a VP is not configured (DID_SERVICE_INTERNAL_URL, INTERNAL_TOKEN_AUTH_TO_DID)',
    );
    await expect(
      unconfigured.oid4vpVerifyResponse({ vpToken: 'x', nonce: 'n', clientId: 'c' }),
    ).rejects.toThrow('OpenID4VP is not configured');
    await expect(
      new HttpDidService({ baseUrl: standIn.url, internalApiToken: undefined }).revokeCredentials({
        userId: 'alice',
        issuedBefore: 1,
      }),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('HttpDidService.sdJwtIssuerTrustAnchors: GET /internal/v1/sd-jwt-issuer/trust-anchors', () => {
  const token = newInternalApiToken();
  const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  /** What the local server answers: status and body text. */
  let answer: { status: number; body: string } = { status: 200, body: '' };
  const seen: { method?: string; url?: string; authorization?: string }[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      if (req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: '401', message: 'Internal API token wrong' } }));
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const adapter = (internalApiToken = token) =>
    new HttpDidService({ baseUrl: url, internalApiToken });

  it('answers the certificates did-service names, asked by GET with the bearer', async () => {
    answer = { status: 200, body: JSON.stringify({ certificates: [PEM, PEM] }) };
    await expect(adapter().sdJwtIssuerTrustAnchors()).resolves.toEqual([PEM, PEM]);
    expect(seen.at(-1)).toEqual({
      method: 'GET',
      url: '/internal/v1/sd-jwt-issuer/trust-anchors',
      authorization: `Bearer ${token}`,
    });
    answer = { status: 200, body: JSON.stringify({ certificates: [] }) };
    await expect(adapter().sdJwtIssuerTrustAnchors()).resolves.toEqual([]);
  });

  it('is 503 when did-service is down or not configured, 502 for a wrong answer or token', async () => {
    answer = { status: 503, body: JSON.stringify({ error: { code: '503', message: 'down' } }) };
    await expect(adapter().sdJwtIssuerTrustAnchors()).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    await expect(
      new HttpDidService({
        baseUrl: 'http://127.0.0.1:9',
        internalApiToken: token,
      }).sdJwtIssuerTrustAnchors(),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(
      new HttpDidService({ baseUrl: undefined, internalApiToken: token }).sdJwtIssuerTrustAnchors(),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    for (const body of ['{"certificates":"x"}', '{}', 'not json', '{"certificates":[""]}']) {
      answer = { status: 200, body };
      await expect(adapter().sdJwtIssuerTrustAnchors()).rejects.toBeInstanceOf(BadGatewayError);
    }
    answer = { status: 200, body: JSON.stringify({ certificates: [PEM] }) };
    await expect(adapter('wrong-token').sdJwtIssuerTrustAnchors()).rejects.toBeInstanceOf(
      BadGatewayError,
    );
  });
});
