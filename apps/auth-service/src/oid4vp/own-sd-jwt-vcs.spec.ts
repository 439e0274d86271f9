// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { createHash, type webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CompactSign, compactVerify, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { JWK } from 'jose';
import { DcqlQuery } from 'dcql';
import {
  createOpenid4vpAuthorizationRequest,
  Openid4vpClient,
  type ResolvedOpenid4vpAuthorizationRequest,
} from '@openid4vc/openid4vp';
import type { JwtHeader, JwtPayload, JwtSigner } from '@openid4vc/oauth2';
import { issueTestSdJwtVc, presentTestSdJwtVc, testStatusList } from '@itp/presentations/testing';
import { createTestDatabase, uniquePrefix, waitFor, type TestDatabase } from '@itp/testing';
import { createCa, issueLeaf, loadOrCreateDevPki, type DevPki, type IssuedLeaf } from '@itp/x509';
import {
  basicAuth,
  newInternalApiToken,
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';
import { createTestVerifier } from '../testing/create-test-verifier.js';
import { testWallet } from '../presentation-requests/test-wallet.js';

// This service's own SD-JWT VCs (contract §14, §15; docs/api.md §8, §14) against the real Redis and
// PostgreSQL. The credentials are signed by the dev PKI's issuer leaf (the key did-service signs
// with in development); its CA reaches auth-service only through did-service's
// `GET /internal/v1/sd-jwt-issuer/trust-anchors`, answered here by a stand-in of did-service's
// internal API (which also makes the login's request objects, as did-service does: a DCQL query
// for either credential, signed by a did:jwk verifier). The wallet is the OpenWallet Foundation's
// `Openid4vpClient` with `dcql`; the credentials and presentations are made by `@sd-jwt/*`.

const PUBLIC_URL = 'https://api.example.test';
const OWN_ISSUER = `${PUBLIC_URL}/v2/did/oid4vci`;
const PROFILE_VCT = `${PUBLIC_URL}/v2/did/oid4vci/vct/profile`;
const PRESENTATION_CLIENT_ID = 'x509_san_dns:api.example.test';
const SITE = { id: 'shop', secret: 'shop-secret-123456', prefixes: ['http://shop.example/'] };
const shop = { authorization: basicAuth(SITE.id, SITE.secret) };

interface Key {
  publicJwk: webcrypto.JsonWebKey;
  privateJwk: webcrypto.JsonWebKey;
}

async function newKey(): Promise<Key> {
  const keys = await generateKeyPair('ES256', { extractable: true });
  return {
    publicJwk: (await exportJWK(keys.publicKey)) as webcrypto.JsonWebKey,
    privateJwk: (await exportJWK(keys.privateKey)) as webcrypto.JsonWebKey,
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A verifier identified by a did:jwk (did-service's is a did:ethr; the wallet resolves either). */
async function didJwkVerifier() {
  const key = await newKey();
  const { kty, crv, x, y } = key.publicJwk;
  const did = `did:jwk:${b64url({ kty, crv, x, y })}`;
  return { did, key, clientId: `decentralized_identifier:${did}` };
}

/** The DCQL query of a login as did-service asks it: its jwt_vc_json VC or its SD-JWT VC. */
const LOGIN_DCQL_QUERY = {
  credentials: [
    {
      id: 'itp_credential',
      format: 'jwt_vc_json' as const,
      meta: { type_values: [['VerifiableCredential', 'Profile']] },
    },
    { id: 'itp_sd_jwt', format: 'dc+sd-jwt' as const, meta: { vct_values: [PROFILE_VCT] } },
  ],
  credential_sets: [{ options: [['itp_credential'], ['itp_sd_jwt']] }],
};

interface DidStandIn {
  url: string;
  /** The PEMs `sd-jwt-issuer/trust-anchors` answers. */
  anchors: string[];
  /** While true: every call answers 503. */
  down: boolean;
  /** The paths called, in order. */
  calls: string[];
  close(): Promise<void>;
}

/** did-service's internal API as auth-service calls it (the calls these specs need). */
async function startDidStandIn(token: string): Promise<DidStandIn> {
  const verifier = await didJwkVerifier();
  const signJwt = async (_signer: JwtSigner, jwt: { header: JwtHeader; payload: JwtPayload }) => {
    const compact = await new CompactSign(new TextEncoder().encode(JSON.stringify(jwt.payload)))
      .setProtectedHeader(jwt.header as never)
      .sign(await importJWK(verifier.key.privateJwk as JWK, 'ES256'));
    return { jwt: compact, signerJwk: verifier.key.publicJwk as never };
  };
  const requestObject = async (body: Record<string, unknown>) => {
    const created = await createOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: {
        client_id: verifier.clientId,
        response_type: 'vp_token',
        response_mode: 'direct_post',
        response_uri: String(body.responseUri),
        nonce: String(body.nonce),
        state: String(body.state),
        dcql_query: LOGIN_DCQL_QUERY,
        client_metadata: {
          vp_formats_supported: {
            jwt_vc_json: { alg_values: ['ES256K'] },
            'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
          },
        },
      },
      jar: {
        jwtSigner: { method: 'did', didUrl: `${verifier.did}#0`, alg: 'ES256' },
        expiresInSeconds: Number(body.expiresInSeconds ?? 300),
        additionalJwtPayload: { iss: verifier.did, aud: 'https://self-issued.me/v2' },
      },
      callbacks: {
        signJwt,
        encryptJwe: () => {
          throw new Error('not encrypted');
        },
      },
    });
    return { clientId: verifier.clientId, requestObject: created.jar?.authorizationRequestJwt };
  };
  const state: DidStandIn = {
    url: '',
    anchors: [],
    down: false,
    calls: [],
    close: async () => undefined,
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, text: string, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      send(res, 401, { error: { code: '401', message: 'Internal API token missing or wrong' } });
      return;
    }
    state.calls.push(`${req.method} ${req.url}`);
    if (state.down) {
      send(res, 503, { error: { code: '503', message: 'did-service is down' } });
      return;
    }
    if (req.method === 'GET' && req.url === '/internal/v1/sd-jwt-issuer/trust-anchors') {
      send(res, 200, { certificates: state.anchors });
    } else if (req.url === '/internal/v1/oid4vp/request-object') {
      send(res, 200, await requestObject(JSON.parse(text) as Record<string, unknown>));
    } else if (req.url === '/internal/v1/oid4vp/verify-response') {
      send(res, 200, { verified: false, error: { code: 'invalid_vp', message: 'not a VP' } });
    } else if (req.url === '/internal/v1/users/revoke-credentials') {
      send(res, 200, { revoked: 0 });
    } else {
      send(res, 404, { error: { code: '404', message: 'no route' } });
    }
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      handle(req, text, res).catch(() => send(res, 500, { error: { code: '500' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => closeServer(server);
  return state;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The issuer's token status list, served as did-service serves it (`application/statuslist+jwt`). */
async function startStatusListServer(): Promise<{
  uri: string;
  bits: number[];
  /** While true: 503. */
  down: boolean;
  sign: (token: () => Promise<string>) => void;
  close(): Promise<void>;
}> {
  let token: () => Promise<string> = async () => '';
  const state = { down: false };
  const server = createServer((_req, res) => {
    if (state.down) {
      res.writeHead(503).end();
      return;
    }
    void token().then((jwt) => {
      res.writeHead(200, { 'content-type': 'application/statuslist+jwt' });
      res.end(jwt);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/did/token-status-lists/1`;
  return {
    uri,
    bits: [0, 1, 0, 0, 0, 0, 0, 0],
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    sign: (make) => {
      token = make;
    },
    close: () => closeServer(server),
  };
}

let db: TestDatabase;
let dir: string;
let did: DidStandIn;
let statusList: Awaited<ReturnType<typeof startStatusListServer>>;
let auth: RunningAuthService;
/** The service the wallet and the site talk to (auth, but in the last spec). */
let target: RunningAuthService;
let pki: DevPki;
let foreignIssuer: IssuedLeaf;
let unknownIssuer: IssuedLeaf;
let holder: Key;
let verifierCaPem: string;
/** How far the service's clock is ahead of the real one. */
let skewMs = 0;
const clock = () => Date.now() + skewMs;
const nowSeconds = () => Math.floor(clock() / 1000);
/** The status list index of each credential (0 valid, 1 revoked). */
const VALID_IDX = 0;
const REVOKED_IDX = 1;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'own-sd-jwt-vcs-'));
  // The dev PKI did-service uses in development (its CA and issuer leaf).
  pki = await loadOrCreateDevPki(join(dir, 'secrets'), { verifierHost: 'localhost' });
  const foreignCa = await createCa({ subject: 'CN=Foreign trusted issuer CA' });
  foreignIssuer = await issueLeaf(foreignCa, {
    subject: 'CN=foreign.example',
    dnsNames: ['foreign.example'],
  });
  const unknownCa = await createCa({ subject: 'CN=Unknown CA' });
  unknownIssuer = await issueLeaf(unknownCa, {
    subject: 'CN=unknown.example',
    dnsNames: ['unknown.example'],
  });
  const verifier = await createTestVerifier('api.example.test');
  verifierCaPem = verifier.caPem;
  // TRUSTED_ISSUER_CERTIFICATES: the foreign issuer only (never the own CA).
  const trusted = join(dir, 'trusted-issuers.pem');
  await writeFile(trusted, foreignCa.pem);
  holder = await newKey();
  statusList = await startStatusListServer();
  statusList.sign(() =>
    testStatusList({ issuer: ownIssuer(), bits: statusList.bits, uri: statusList.uri }),
  );
  const token = newInternalApiToken();
  did = await startDidStandIn(token);
  did.anchors = [pki.caPem];
  auth = await startAuthService(
    {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      DID_SERVICE_INTERNAL_URL: did.url,
      INTERNAL_TOKEN_AUTH_TO_DID: token,
      PUBLIC_URL: `${PUBLIC_URL}/`,
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
      ...verifier.env,
      TRUSTED_ISSUER_CERTIFICATES: trusted,
    },
    { clock },
  );
  target = auth;
  await auth.domain.userAdmin.add({
    id: 'alice',
    password: 'alice-password',
    name: 'Alice',
    email: 'alice@example.com',
  });
  await auth.domain.userAdmin.add({ id: 'bob', password: 'bob-password-123', name: 'Bob' });
  await auth.domain.clientAdmin.add({
    id: SITE.id,
    secret: SITE.secret,
    requestIdPrefixes: SITE.prefixes,
  });
});

afterAll(async () => {
  await auth?.close();
  await did?.close();
  await statusList?.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ownIssuer = () => ({ privateKeyJwk: pki.issuer.privateKeyJwk, x5c: pki.issuer.x5c });
const leafIssuer = (leaf: IssuedLeaf) => ({ privateKeyJwk: leaf.privateKeyJwk, x5c: leaf.x5c });

/** A Profile SD-JWT VC of `userId` as did-service issues it (claims disclosable, sub visible). */
function profileVc(
  userId: string,
  options: {
    by?: { privateKeyJwk: webcrypto.JsonWebKey; x5c: readonly string[] };
    idx?: number;
    iat?: number;
    iss?: string;
    vct?: string;
  } = {},
): Promise<string> {
  return issueTestSdJwtVc({
    issuer: options.by ?? ownIssuer(),
    holderPublicJwk: holder.publicJwk,
    vct: options.vct ?? PROFILE_VCT,
    iss: options.iss ?? OWN_ISSUER,
    iat: options.iat ?? nowSeconds(),
    exp: nowSeconds() + 3600,
    claims: { sub: userId, name: 'Alice', email: 'alice@example.com' },
    disclosable: ['name', 'email'],
    status: { idx: options.idx ?? VALID_IDX, uri: statusList.uri },
  });
}

const present = (credential: string, nonce: string, audience: string) =>
  presentTestSdJwtVc(credential, {
    holderPrivateJwk: holder.privateJwk,
    disclose: [],
    nonce,
    audience,
    iat: nowSeconds(),
  });

/** The OpenWallet Foundation's client as a wallet on this machine: PUBLIC_URL is the service. */
const wallet = new Openid4vpClient({
  callbacks: {
    hash: (data, alg) =>
      new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return fetch(
        url.startsWith(PUBLIC_URL) ? target.url + url.slice(PUBLIC_URL.length) : url,
        init,
      );
    },
    // A request object signed by a did:jwk verifier: the key is in the DID.
    async verifyJwt(signer, jwt) {
      if (signer.method !== 'did' || !signer.didUrl.startsWith('did:jwk:')) {
        return { verified: false };
      }
      const [did] = signer.didUrl.split('#');
      const jwk = JSON.parse(
        Buffer.from((did ?? '').slice('did:jwk:'.length), 'base64url').toString('utf8'),
      ) as JWK;
      try {
        await compactVerify(jwt.compact, await importJWK(jwk, 'ES256'));
        return { verified: true, signerJwk: jwk as never };
      } catch {
        return { verified: false };
      }
    },
    signJwt: () => {
      throw new Error('not used');
    },
    encryptJwe: () => {
      throw new Error('not used');
    },
    decryptJwe: () => {
      throw new Error('not used');
    },
  },
});

/** auth-user-by-app, as the site (or the OpenID Connect login page) opens a login request. */
async function loginRequest(): Promise<{ requestId: string; openid4vpUri: string }> {
  const res = await postJson(
    `${target.url}/v2/auth/auth-user-by-app`,
    { requestId: 'http://shop.example/login?', waitTime: 60 },
    shop,
  );
  expect(res.status).toBe(200);
  const body = res.body as { requestId: string; openid4vpUri?: string };
  expect(body.openid4vpUri).toMatch(/^openid4vp:\/\//);
  return { requestId: body.requestId, openid4vpUri: body.openid4vpUri ?? '' };
}

/** The wallet reads the QR code's URI: fetches and verifies the request object. */
async function resolve(openid4vpUri: string): Promise<ResolvedOpenid4vpAuthorizationRequest> {
  const parsed = wallet.parseOpenid4vpAuthorizationRequest({ authorizationRequest: openid4vpUri });
  return wallet.resolveOpenId4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params,
  });
}

/** The wallet answers `vpToken` (`direct_post`, the request's state added by the library). */
async function answer(
  resolved: ResolvedOpenid4vpAuthorizationRequest,
  vpToken: Record<string, string[]>,
): Promise<{ status: number; body: unknown }> {
  const request = resolved.authorizationRequestPayload;
  const { authorizationResponsePayload } = await wallet.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: vpToken as never },
  });
  const { response } = await wallet.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: { response_uri: String(request.response_uri) },
    authorizationResponsePayload,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/**
 * A new login request, resolved by the wallet, and `credential` presented to it: for the request's
 * client id, with its nonce unless another is given.
 */
async function presentToLoginRequest(credential: string, nonce?: string) {
  const { requestId, openid4vpUri } = await loginRequest();
  const resolved = await resolve(openid4vpUri);
  const request = resolved.authorizationRequestPayload;
  const presentation = await present(
    credential,
    nonce ?? String(request.nonce),
    String(request.client_id),
  );
  return { requestId, resolved, presentation };
}

/** The whole wallet side: resolve, find the credential query the SD-JWT VC answers, present it. */
async function logInWith(credential: string, overrides: { nonce?: string } = {}) {
  const { requestId, resolved, presentation } = await presentToLoginRequest(
    credential,
    overrides.nonce,
  );
  const query = DcqlQuery.parse(resolved.dcql?.query as DcqlQuery.Input);
  const { vct, sub } = decodeJwt(credential.split('~')[0] ?? '');
  const matched = DcqlQuery.query(query, [
    {
      credential_format: 'dc+sd-jwt',
      vct: String(vct),
      claims: { sub: String(sub) },
      cryptographic_holder_binding: true,
    },
  ]);
  // Posted as the answer to the SD-JWT VC query even when it does not match (a dishonest wallet).
  const answered = await answer(resolved, { itp_sd_jwt: [presentation] });
  return { requestId, answered, matched: matched.can_be_satisfied };
}

const poll = (requestId: string) =>
  postJson(`${target.url}/v2/auth/auth-user-result-by-app`, { requestId }, shop);

const ACCESS_DENIED = {
  status: 400,
  body: { error: 'access_denied', error_description: expect.any(String) },
};

describe('login with this service’s own SD-JWT VC (OpenID4VP, docs/api.md §8)', () => {
  it('logs in the user named by sub: the wallet finds the SD-JWT VC option of the request and presents it', async () => {
    const { requestId, answered, matched } = await logInWith(await profileVc('alice'));
    expect(matched).toBe(true);
    expect(answered).toEqual({ status: 200, body: {} });
    const result = await poll(requestId);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ userId: 'alice' });
    // The same login as with a VC: amr vp.
    const { lastLogins } = await auth.domain.userAdmin.show('alice');
    expect(Object.keys(lastLogins)).toEqual(['vp']);
    // did-service never saw the SD-JWT VC: auth-service checked it against the own issuers.
    expect(did.calls).not.toContain('POST /internal/v1/oid4vp/verify-response');
  });

  it('refuses a revoked credential (its status list bit is 1)', async () => {
    const { requestId, answered } = await logInWith(await profileVc('alice', { idx: REVOKED_IDX }));
    expect(answered).toEqual(ACCESS_DENIED);
    expect((await poll(requestId)).status).toBe(401);
  });

  it('refuses a presentation bound to another nonce', async () => {
    const { requestId, answered } = await logInWith(await profileVc('alice'), {
      nonce: 'another-nonce',
    });
    expect(answered).toEqual(ACCESS_DENIED);
    expect((await poll(requestId)).status).toBe(401);
  });

  it('refuses an SD-JWT VC of a trusted foreign issuer (TRUSTED_ISSUER_CERTIFICATES), even one claiming our iss and vct', async () => {
    const { requestId, answered } = await logInWith(
      await profileVc('alice', { by: leafIssuer(foreignIssuer) }),
    );
    expect(answered).toEqual(ACCESS_DENIED);
    expect((await poll(requestId)).status).toBe(401);
  });

  it('refuses an own-signed credential of another issuer or another type', async () => {
    for (const options of [{ iss: 'https://issuer.example' }, { vct: 'urn:eudi:pid:1' }]) {
      const { requestId, answered } = await logInWith(await profileVc('alice', options));
      expect(answered).toEqual(ACCESS_DENIED);
      expect((await poll(requestId)).status).toBe(401);
    }
  });

  it('refuses a credential issued before the user’s reset; one issued after it logs in', async () => {
    const before = await profileVc('bob', { iat: nowSeconds() - 60 });
    await auth.domain.userAdmin.resetPassword('bob', 'bob-new-password-123');
    const refused = await logInWith(before);
    expect(refused.answered).toEqual(ACCESS_DENIED);
    expect((await poll(refused.requestId)).status).toBe(401);
    // The path after the mistake: a credential issued after the reset logs in.
    skewMs += 2_000;
    const after = await logInWith(await profileVc('bob'));
    expect(after.answered).toEqual({ status: 200, body: {} });
    expect((await poll(after.requestId)).body).toMatchObject({ userId: 'bob' });
  });

  it('answers 503 temporarily_unavailable while the status list cannot be fetched; the wallet posts again and logs in', async () => {
    const { requestId, resolved, presentation } = await presentToLoginRequest(
      await profileVc('alice'),
    );
    statusList.down = true;
    let unavailable;
    try {
      unavailable = await answer(resolved, { itp_sd_jwt: [presentation] });
    } finally {
      statusList.down = false;
    }
    expect(unavailable).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    expect(await answer(resolved, { itp_sd_jwt: [presentation] })).toEqual({
      status: 200,
      body: {},
    });
    expect((await poll(requestId)).body).toMatchObject({ userId: 'alice' });
  });

  it('refuses a vp_token answering both options, or with two SD-JWT VCs', async () => {
    for (const vpToken of [
      (p: string) => ({ itp_sd_jwt: [p], itp_credential: ['x.y.z'] }),
      (p: string) => ({ itp_sd_jwt: [p, p] }),
    ]) {
      const { requestId, resolved, presentation } = await presentToLoginRequest(
        await profileVc('alice'),
      );
      expect(await answer(resolved, vpToken(presentation))).toEqual(ACCESS_DENIED);
      expect((await poll(requestId)).status).toBe(401);
    }
  });
});

describe('the own issuers are trusted by the presentation verifier (docs/api.md §14)', () => {
  const query = {
    credentials: [{ id: 'profile', format: 'dc+sd-jwt', meta: { vct_values: [PROFILE_VCT] } }],
  };

  /** A site's presentation request, answered by the x5c-trusting test wallet (encrypted). */
  async function presentToSite(credential: string) {
    const created = await postJson(
      `${auth.url}/v2/auth/presentation-requests`,
      { dcql_query: query },
      shop,
    );
    expect(created.status).toBe(200);
    const { requestId, openid4vpUri } = created.body as { requestId: string; openid4vpUri: string };
    const siteWallet = testWallet({ verifierCaPem, publicUrl: PUBLIC_URL, serviceUrl: auth.url });
    const resolved = await siteWallet.resolve(openid4vpUri);
    const presentation = await present(
      credential,
      String(resolved.authorizationRequestPayload.nonce),
      PRESENTATION_CLIENT_ID,
    );
    const answered = await siteWallet.answer(resolved, { profile: [presentation] });
    const result = await postJson(
      `${auth.url}/v2/auth/presentation-requests/result`,
      { requestId },
      shop,
    );
    return { answered, result: result.body };
  }

  it('accepts a credential whose CA came only from did-service, and refuses one of an unknown CA', async () => {
    const own = await presentToSite(await profileVc('alice'));
    expect(own.answered.status).toBe(200);
    expect(own.result).toMatchObject({
      status: 'verified',
      credentials: { profile: [{ format: 'dc+sd-jwt', issuer: OWN_ISSUER, status: 'valid' }] },
    });
    const unknown = await presentToSite(
      await profileVc('alice', { by: leafIssuer(unknownIssuer) }),
    );
    expect(unknown.answered.status).toBe(400);
    expect(unknown.result).toEqual({
      status: 'refused',
      error: 'access_denied',
      rule: 'issuer_untrusted',
    });
  });

  it('fetches the anchors again for an untrusted chain (at most once a minute): a new own CA is trusted without a restart', async () => {
    const renewedCa = await createCa({ subject: 'CN=Renewed own issuer CA' });
    const renewed = await issueLeaf(renewedCa, {
      subject: 'CN=api.example.test',
      dnsNames: ['api.example.test'],
    });
    did.anchors = [pki.caPem, renewedCa.pem];
    // A minute after the last fetch (the service's clock): the untrusted chain makes it fetch.
    skewMs += 61_000;
    const before = did.calls.length;
    const credential = await profileVc('alice', { by: leafIssuer(renewed) });
    const renewedResult = await presentToSite(credential);
    expect(renewedResult.result).toMatchObject({ status: 'verified' });
    expect(did.calls.slice(before)).toContain('GET /internal/v1/sd-jwt-issuer/trust-anchors');
    // Within the minute an unknown chain does not make it fetch again.
    const calls = did.calls.length;
    const unknown = await presentToSite(
      await profileVc('alice', { by: leafIssuer(unknownIssuer) }),
    );
    expect(unknown.result).toMatchObject({ status: 'refused', rule: 'issuer_untrusted' });
    expect(did.calls.slice(calls)).not.toContain('GET /internal/v1/sd-jwt-issuer/trust-anchors');
  });
});

describe('did-service down at start', () => {
  it('auth-service starts, and trusts the own issuers once did-service answers', async () => {
    const token = newInternalApiToken();
    const later = await startDidStandIn(token);
    later.anchors = [pki.caPem];
    later.down = true;
    let skew = skewMs;
    const service = await startAuthService(
      {
        DATABASE_URL: db.url,
        DID_SERVICE_INTERNAL_URL: later.url,
        INTERNAL_TOKEN_AUTH_TO_DID: token,
        PUBLIC_URL: `${PUBLIC_URL}/`,
        LOGIN_POLL_MIN_INTERVAL_MS: '0',
      },
      { clock: () => Date.now() + skew },
    );
    target = service;
    try {
      expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
      await waitFor(() => later.calls.includes('GET /internal/v1/sd-jwt-issuer/trust-anchors'), {
        what: 'the first (failed) fetch of the trust anchors',
      });
      later.down = false;
      // A second after the failure (the service's clock) the next presentation's untrusted
      // chain makes it fetch again (unless its timer already did): the own CA is trusted.
      skew += 1_000;
      const credential = await profileVc('alice', { iat: Math.floor((Date.now() + skew) / 1000) });
      const { requestId, answered } = await logInWith(credential);
      expect(answered).toEqual({ status: 200, body: {} });
      expect((await poll(requestId)).body).toMatchObject({ userId: 'alice' });
    } finally {
      target = auth;
      await service.close();
      await later.close();
    }
  });
});
