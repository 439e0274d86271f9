import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadGatewayError, ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import {
  startDidServiceStandIn,
  STAND_IN_CLIENT_ID,
  STAND_IN_HOLDER_DID,
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
