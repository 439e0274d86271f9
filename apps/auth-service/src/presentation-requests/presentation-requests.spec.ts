// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { webcrypto } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint, CompactEncrypt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { setGlobalConfig } from '@openid4vc/utils';
import {
  issueTestMdoc,
  issueTestSdJwtVc,
  presentTestMdoc,
  presentTestSdJwtVc,
} from '@itp/presentations/testing';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import { createCa, issueLeaf, type IssuedLeaf } from '@itp/x509';
import {
  basicAuth,
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';
import { createTestVerifier } from '../testing/create-test-verifier.js';
import { snapshotRedisKeys } from '../testing/redis-snapshot.js';
import { testWallet } from './test-wallet.js';

// Presentation requests (contract §14) on two instances against the real Redis and PostgreSQL;
// the wallet is @openid4vc/openid4vp's Openid4vpClient, the credentials made by
// @itp/presentations/testing's issuers (@sd-jwt/*).
const PUBLIC_URL = 'https://api.example.test';
const CLIENT_ID = 'x509_san_dns:api.example.test';
const SITE = { id: 'shop', secret: 'shop-secret-123456' };
const OTHER = { id: 'other-site', secret: 'other-secret-123456' };
const shop = { authorization: basicAuth(SITE.id, SITE.secret) };
const other = { authorization: basicAuth(OTHER.id, OTHER.secret) };
const PID_VCT = 'urn:eudi:pid:1';
const PID_QUERY = {
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
      claims: [{ path: ['given_name'] }, { path: ['birthdate'] }],
    },
  ],
};

let db: TestDatabase;
let dir: string;
let a: RunningAuthService;
let b: RunningAuthService;
/** How far the services' clock is ahead of the real one. */
let skewMs = 0;
const clock = () => Date.now() + skewMs;
let verifierCaPem: string;
let issuer: IssuedLeaf;
let rogueIssuer: IssuedLeaf;
let holder: { publicJwk: webcrypto.JsonWebKey; privateJwk: webcrypto.JsonWebKey };

beforeAll(async () => {
  setGlobalConfig({ allowInsecureUrls: true }); // the wallet's fetches go to http on loopback
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'presentation-requests-'));
  const verifier = await createTestVerifier('api.example.test');
  verifierCaPem = verifier.caPem;
  const issuerCa = await createCa({ subject: 'CN=Test PID issuer CA' });
  issuer = await issueLeaf(issuerCa, {
    subject: 'CN=issuer.example',
    dnsNames: ['issuer.example'],
  });
  const rogueCa = await createCa({ subject: 'CN=Rogue CA' });
  rogueIssuer = await issueLeaf(rogueCa, {
    subject: 'CN=issuer.example',
    dnsNames: ['issuer.example'],
  });
  const trusted = join(dir, 'trusted-issuers.pem');
  await writeFile(trusted, issuerCa.pem);
  const keys = await generateKeyPair('ES256', { extractable: true });
  holder = {
    publicJwk: (await exportJWK(keys.publicKey)) as webcrypto.JsonWebKey,
    privateJwk: (await exportJWK(keys.privateKey)) as webcrypto.JsonWebKey,
  };
  const env = {
    DATABASE_URL: db.url,
    REDIS_KEY_PREFIX: uniquePrefix('auth'),
    JWT_SIGNING_KEYS: await newSigningKeysSecret(),
    PUBLIC_URL: `${PUBLIC_URL}/`,
    LOGIN_POLL_MIN_INTERVAL_MS: '0',
    ...verifier.env,
    TRUSTED_ISSUER_CERTIFICATES: trusted,
  };
  a = await startAuthService(env, { clock });
  b = await startAuthService(env, { clock });
  await a.domain.clientAdmin.add({
    id: SITE.id,
    secret: SITE.secret,
    requestIdPrefixes: ['http://shop.example/'],
  });
  await a.domain.clientAdmin.add({
    id: OTHER.id,
    secret: OTHER.secret,
    requestIdPrefixes: ['http://other.example/'],
  });
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Created {
  requestId: string;
  openid4vpUri: string;
  expiresInSeconds: number;
}

async function create(body: unknown = { dcql_query: PID_QUERY }, site = shop): Promise<Created> {
  const res = await postJson(`${a.url}/v2/auth/presentation-requests`, body, site);
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body as Created;
}

const result = (requestId: string, site = shop, on = b) =>
  postJson(`${on.url}/v2/auth/presentation-requests/result`, { requestId }, site);

/** The wallet reads the request through instance b. */
const walletOn = (service: RunningAuthService) =>
  testWallet({ verifierCaPem, publicUrl: PUBLIC_URL, serviceUrl: service.url });

/** A PID of the holder, issued by `by`. */
function pid(by: IssuedLeaf = issuer): Promise<string> {
  return issueTestSdJwtVc({
    issuer: { privateKeyJwk: by.privateKeyJwk, x5c: by.x5c },
    holderPublicJwk: holder.publicJwk,
    vct: PID_VCT,
    claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12' },
    disclosable: ['given_name', 'family_name', 'birthdate'],
  });
}

const present = (
  credential: string,
  nonce: string,
  disclose = ['given_name', 'family_name', 'birthdate'],
) =>
  presentTestSdJwtVc(credential, {
    holderPrivateJwk: holder.privateJwk,
    disclose,
    nonce,
    audience: CLIENT_ID,
  });

async function postForm(
  service: RunningAuthService,
  requestId: string,
  form: Record<string, string>,
) {
  const res = await fetch(`${service.url}/v2/auth/presentation-requests/${requestId}/response`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('presentation requests: an SD-JWT VC end to end', () => {
  it('creates a request, the wallet verifies the x5c-signed request object, answers encrypted; the site gets exactly the claims it asked for, once', async () => {
    const created = await create({ dcql_query: PID_QUERY, purpose: 'Age check', waitTime: 120 });
    expect(created.expiresInSeconds).toBe(120);
    expect(created.requestId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.openid4vpUri).toBe(
      `openid4vp://?client_id=${encodeURIComponent(CLIENT_ID)}&request_uri=${encodeURIComponent(
        `${PUBLIC_URL}/v2/auth/presentation-requests/${created.requestId}/request`,
      )}`,
    );
    expect((await result(created.requestId)).status).toBe(401);

    const wallet = walletOn(b);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const request = resolved.authorizationRequestPayload;
    expect(resolved.client).toMatchObject({ identifier: 'api.example.test' });
    expect(request).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: `${PUBLIC_URL}/v2/auth/presentation-requests/${created.requestId}/response`,
      dcql_query: { credentials: [expect.objectContaining({ id: 'pid', format: 'dc+sd-jwt' })] },
    });
    const jar = resolved.jar?.jwt;
    expect(resolved.jar?.signer).toMatchObject({ method: 'x5c', alg: 'ES256' });
    expect(jar?.header).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt' });
    expect(jar?.header.x5c).toHaveLength(2);
    expect(jar?.payload).toMatchObject({
      aud: 'https://self-issued.me/v2',
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    const [encKey] = (request.client_metadata?.jwks as { keys: Record<string, unknown>[] }).keys;
    expect(encKey).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      use: 'enc',
      alg: 'ECDH-ES',
      kid: expect.any(String),
    });
    expect(encKey).not.toHaveProperty('d');

    const answer = await wallet.answer(resolved, {
      pid: [await present(await pid(), request.nonce)],
    });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: {} });

    const collected = await result(created.requestId);
    expect({ status: collected.status, body: collected.body }).toEqual({
      status: 200,
      body: {
        status: 'verified',
        credentials: {
          pid: [
            {
              format: 'dc+sd-jwt',
              issuer: 'https://issuer.example',
              claims: { given_name: 'Erika', birthdate: '1964-08-12' },
              status: 'valid',
            },
          ],
        },
      },
    });
    // Once: then the request is unknown.
    expect((await result(created.requestId, shop, a)).status).toBe(400);

    // Replayed (the same JWE again): refused, nothing changes.
    const replay = await postForm(a, created.requestId, { response: answer.jwe });
    expect(replay).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
  });

  it('serves the request object once (then 404 invalid_request)', async () => {
    const created = await create();
    const uri = `${a.url}/v2/auth/presentation-requests/${created.requestId}/request`;
    const first = await fetch(uri);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    await first.text();
    const again = await fetch(uri);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
    });
  });
});

describe('presentation requests: an mdoc end to end', () => {
  it('verifies an mdoc bound to this request’s session transcript (encryption key thumbprint) and keeps only the asked-for elements', async () => {
    const NS = 'org.iso.18013.5.1';
    const created = await create({
      dcql_query: {
        credentials: [
          {
            id: 'mdl',
            format: 'mso_mdoc',
            meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
            claims: [{ path: [NS, 'given_name'] }, { path: [NS, 'age_over_18'] }],
          },
        ],
      },
    });
    const wallet = walletOn(b);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const request = resolved.authorizationRequestPayload;
    const [encKey] = (request.client_metadata?.jwks as { keys: JWK[] }).keys;
    const mdoc = await issueTestMdoc({
      issuer: { privateKeyJwk: issuer.privateKeyJwk, x5c: issuer.x5c },
      devicePublicJwk: holder.publicJwk,
      docType: 'org.iso.18013.5.1.mDL',
      namespaces: { [NS]: { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true } },
    });
    const deviceResponse = await presentTestMdoc(mdoc, {
      devicePrivateJwk: holder.privateJwk,
      disclose: { [NS]: ['given_name', 'family_name', 'age_over_18'] },
      clientId: CLIENT_ID,
      nonce: request.nonce,
      responseUri: String(request.response_uri),
      jwkThumbprint: new Uint8Array(
        Buffer.from(await calculateJwkThumbprint(encKey as JWK, 'sha256'), 'base64url'),
      ),
    });
    const answer = await wallet.answer(resolved, { mdl: [deviceResponse] }, 'A256GCM');
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: {} });
    expect((await result(created.requestId)).body).toEqual({
      status: 'verified',
      credentials: {
        mdl: [
          {
            format: 'mso_mdoc',
            issuer: expect.stringContaining('issuer.example'),
            claims: { [NS]: { given_name: 'Erika', age_over_18: true } },
            status: 'valid',
          },
        ],
      },
    });
  });
});

describe('presentation requests: device-signed mdoc elements (ISO 18013-5 DeviceSigned)', () => {
  const NS = 'eu.europa.ec.eudi.pid.1';

  /** A PID mdoc presented to a new request: `disclose` issuer-signed, `deviceSigned` by the device. */
  async function presentPidMdoc(
    disclose: string[],
    deviceSigned: Record<string, unknown>,
    claims: string[] = ['age_over_18'],
  ) {
    const created = await create({
      dcql_query: {
        credentials: [
          {
            id: 'pid',
            format: 'mso_mdoc',
            meta: { doctype_value: NS },
            claims: claims.map((claim) => ({ path: [NS, claim] })),
          },
        ],
      },
    });
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const request = resolved.authorizationRequestPayload;
    const [encKey] = (request.client_metadata?.jwks as { keys: JWK[] }).keys;
    const mdoc = await issueTestMdoc({
      issuer: { privateKeyJwk: issuer.privateKeyJwk, x5c: issuer.x5c },
      devicePublicJwk: holder.publicJwk,
      docType: NS,
      namespaces: { [NS]: { given_name: 'Erika', age_over_18: false } },
    });
    const deviceResponse = await presentTestMdoc(mdoc, {
      devicePrivateJwk: holder.privateJwk,
      disclose: { [NS]: disclose },
      deviceSigned: { [NS]: deviceSigned },
      clientId: CLIENT_ID,
      nonce: request.nonce,
      responseUri: String(request.response_uri),
      jwkThumbprint: new Uint8Array(
        Buffer.from(await calculateJwkThumbprint(encKey as JWK, 'sha256'), 'base64url'),
      ),
    });
    const answer = await wallet.answer(resolved, { pid: [deviceResponse] });
    return { answer, outcome: (await result(created.requestId)).body };
  }

  it('refuses a requested element the wallet sent device-signed only (the issuer said false)', async () => {
    const { answer, outcome } = await presentPidMdoc(['given_name'], { age_over_18: true });
    expect(answer).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    expect(outcome).toEqual({ status: 'refused', error: 'access_denied', rule: 'device_signed' });
  });

  it('answers the issuer-signed value, never a device-signed one, whether asked for or not', async () => {
    const { answer, outcome } = await presentPidMdoc(
      ['given_name', 'age_over_18'],
      { age_over_18: true, family_name: 'Forged' },
      ['given_name', 'age_over_18'],
    );
    expect(answer.status).toBe(200);
    expect(outcome).toEqual({
      status: 'verified',
      credentials: {
        pid: [
          {
            format: 'mso_mdoc',
            issuer: expect.stringContaining('issuer.example'),
            claims: { [NS]: { given_name: 'Erika', age_over_18: false } },
            status: 'valid',
          },
        ],
      },
    });
  });
});

describe('presentation requests: refusals', () => {
  it('refuses a credential of an untrusted issuer: the site learns the rule', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const answer = await wallet.answer(resolved, {
      pid: [await present(await pid(rogueIssuer), resolved.authorizationRequestPayload.nonce)],
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    expect((await result(created.requestId)).body).toEqual({
      status: 'refused',
      error: 'access_denied',
      rule: 'issuer_untrusted',
    });
  });

  it('refuses a presentation made for another nonce', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const answer = await wallet.answer(resolved, {
      pid: [await present(await pid(), 'another-nonce')],
    });
    expect(answer.status).toBe(400);
    expect((await result(created.requestId)).body).toEqual({
      status: 'refused',
      error: 'access_denied',
      rule: 'key_binding_nonce',
    });
  });

  it('refuses an unencrypted vp_token (400 invalid_request) and keeps the request open', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const { nonce, state } = resolved.authorizationRequestPayload;
    const vp = await present(await pid(), nonce);
    const plain = await postForm(b, created.requestId, {
      vp_token: JSON.stringify({ pid: [vp] }),
      state: String(state),
    });
    expect(plain).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
    expect((await result(created.requestId)).status).toBe(401);
    expect((await wallet.answer(resolved, { pid: [vp] })).status).toBe(200);
  });

  it('refuses a response replayed to a Redis that went back in time (the one-time mark in SQL)', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const before = await snapshotRedisKeys(a.config.REDIS_KEY_PREFIX!);
    const answer = await wallet.answer(resolved, {
      pid: [await present(await pid(), resolved.authorizationRequestPayload.nonce)],
    });
    expect(answer.status).toBe(200);
    await before();
    const replay = await postForm(b, created.requestId, { response: answer.jwe });
    expect(replay).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
  });

  it('lets exactly one of concurrent responses through, on any instance', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const vp = await present(await pid(), resolved.authorizationRequestPayload.nonce);
    const jwe = await wallet.encrypt(resolved, { pid: [vp] });
    const answers = await Promise.all(
      [a, b, a, b, a].map((service) => postForm(service, created.requestId, { response: jwe })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    expect((await result(created.requestId)).body).toMatchObject({ status: 'verified' });
  });

  it('refuses a response encrypted to another key (400 invalid_request), a body over the limit (413), and keeps the request open', async () => {
    const created = await create();
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(created.openid4vpUri);
    const { nonce, state } = resolved.authorizationRequestPayload;
    const vp = await present(await pid(), nonce);
    const foreign = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: { pid: [vp] }, state })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM' })
      .encrypt(foreign.publicKey);
    expect(await postForm(a, created.requestId, { response: jwe })).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
    const huge = await postForm(a, created.requestId, { response: 'a'.repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'invalid_request' });
    expect((await result(created.requestId)).status).toBe(401);
    expect((await wallet.answer(resolved, { pid: [vp] })).status).toBe(200);
  });

  it('refuses the request object and a response once the request expired; the site then gets 400', async () => {
    const created = await create({ dcql_query: PID_QUERY, waitTime: 5 });
    const early = await create({ dcql_query: PID_QUERY, waitTime: 5 });
    const wallet = walletOn(a);
    const resolved = await wallet.resolve(early.openid4vpUri);
    const vp = await present(await pid(), resolved.authorizationRequestPayload.nonce);
    const jwe = await wallet.encrypt(resolved, { pid: [vp] });
    skewMs += 5_000;
    const request = await fetch(
      `${a.url}/v2/auth/presentation-requests/${created.requestId}/request`,
    );
    expect(request.status).toBe(404);
    expect(await request.json()).toMatchObject({ error: 'invalid_request' });
    expect((await postForm(b, early.requestId, { response: jwe })).status).toBe(400);
    expect((await result(created.requestId)).status).toBe(400);
    expect((await result(early.requestId)).status).toBe(400);
  });

  it('refuses vp_tokens that do not answer the query: garbage, an entry not asked for, nothing', async () => {
    const NS = 'org.iso.18013.5.1';
    const query = {
      credentials: [
        ...PID_QUERY.credentials,
        {
          id: 'mdl',
          format: 'mso_mdoc',
          meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
          claims: [{ path: [NS, 'given_name'] }],
        },
      ],
      credential_sets: [{ options: [['pid'], ['mdl']] }],
    };
    const cases: Array<[Record<string, string[]>, string]> = [
      [{ mdl: ['bm90LWFuLW1kb2M'] }, 'format'],
      [{ pid: ['not~an~sd-jwt~'] }, 'format'],
      [{ other: ['x'] }, 'vp_token_malformed'],
      [{}, 'dcql_not_satisfied'],
    ];
    for (const [vpToken, rule] of cases) {
      const created = await create({ dcql_query: query });
      const wallet = walletOn(a);
      const resolved = await wallet.resolve(created.openid4vpUri);
      const answer = await postForm(b, created.requestId, {
        response: await wallet.encrypt(resolved, vpToken),
      });
      expect({ vpToken, answer }).toEqual({
        vpToken,
        answer: {
          status: 400,
          body: { error: 'access_denied', error_description: expect.any(String) },
        },
      });
      const outcome = (await result(created.requestId)).body;
      expect({ vpToken, outcome }).toEqual({
        vpToken,
        outcome: { status: 'refused', error: 'access_denied', rule },
      });
    }
  });

  it('answers another client’s requestId as an unknown one (400), and never hands it out', async () => {
    const created = await create();
    const foreign = await result(created.requestId, other);
    const unknown = await result('A'.repeat(43), other);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(unknown.body);
    expect((await result(created.requestId)).status).toBe(401);
  });

  it('takes a wallet’s error response: the site learns it was declined', async () => {
    const created = await create();
    const resolved = await walletOn(a).resolve(created.openid4vpUri);
    const declined = await postForm(a, created.requestId, {
      error: 'access_denied',
      state: String(resolved.authorizationRequestPayload.state),
    });
    expect(declined).toEqual({ status: 200, body: {} });
    expect((await result(created.requestId)).body).toEqual({
      status: 'declined',
      error: 'access_denied',
    });
  });

  it('refuses a wrong state (400 invalid_request), leaving the request open', async () => {
    const created = await create();
    await walletOn(a).resolve(created.openid4vpUri);
    const wrong = await postForm(a, created.requestId, {
      error: 'access_denied',
      state: 'x'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    expect((await result(created.requestId)).status).toBe(401);
  });
});

describe('POST /v2/auth/presentation-requests', () => {
  it('refuses unsupported or malformed DCQL queries, too many credentials, bad waitTime (400) and missing client credentials (401)', async () => {
    const post = (body: unknown, site: Record<string, string> = shop) =>
      postJson(`${a.url}/v2/auth/presentation-requests`, body, site);
    const credential = (id: string) => ({
      id,
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
    });
    for (const body of [
      {},
      { dcql_query: { credentials: [] } },
      {
        dcql_query: {
          credentials: [{ id: 'x', format: 'ldp_vc', meta: { type_values: [['A']] } }],
        },
      },
      { dcql_query: { credentials: [{ id: 'x', format: 'dc+sd-jwt' }] } },
      { dcql_query: { credentials: [{ id: 'x', format: 'mso_mdoc' }] } },
      // jwt_vc_json: claim paths start at the VC and name a claim of its credentialSubject.
      ...[[['name']], [['credentialSubject']], [['vc', 'credentialSubject', 'name']]].map(
        (paths) => ({
          dcql_query: {
            credentials: [
              {
                id: 'x',
                format: 'jwt_vc_json',
                meta: { type_values: [['VerifiableCredential']] },
                claims: paths.map((path) => ({ path })),
              },
            ],
          },
        }),
      ),
      { dcql_query: { credentials: Array.from({ length: 11 }, (_, i) => credential(`c${i}`)) } },
      { dcql_query: PID_QUERY, waitTime: 601 },
      { dcql_query: PID_QUERY, waitTime: 0 },
      { dcql_query: PID_QUERY, extra: 1 },
    ]) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await post({ dcql_query: PID_QUERY }, {})).status).toBe(401);
    expect(
      (
        await post(
          { dcql_query: PID_QUERY },
          { authorization: basicAuth(SITE.id, 'wrong-secret-123') },
        )
      ).status,
    ).toBe(401);
    const ok = await post({
      dcql_query: { credentials: Array.from({ length: 10 }, (_, i) => credential(`c${i}`)) },
    });
    expect(ok.status).toBe(200);
    expect((ok.body as Created).expiresInSeconds).toBe(300);
    const ownVc = await post({
      dcql_query: {
        credentials: [
          {
            id: 'profile',
            format: 'jwt_vc_json',
            meta: { type_values: [['VerifiableCredential', 'Profile']] },
            claims: [{ path: ['credentialSubject', 'name'] }],
          },
        ],
      },
    });
    expect(ownVc.status).toBe(200);
  });
});
