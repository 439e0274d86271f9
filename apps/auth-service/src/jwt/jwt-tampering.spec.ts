import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT, UnsecuredJWT, exportSPKI, importJWK, type CryptoKey } from 'jose';
import { createJwtVerifier, type JwtVerifier } from '@itp/auth-jwt';
import { UnauthorizedError } from '@itp/errors';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import {
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';
import { generateSigningJwk, parseSigningKeys, type SigningKey } from './signing-keys.js';
import { TokenIssuer } from './token-issuer.js';

/**
 * JWT tampering as a verifying service sees it: @itp/auth-jwt's createJwtVerifier against the
 * JWKS of a real auth-service over HTTP. The service runs with two keys, [current, previous]
 * (a rotation overlap).
 */
const ALICE = { id: 'alice', tokensValidAfter: 0 };

describe('tokens of auth-service as seen by a verifying service', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  let verifier: JwtVerifier;
  let current: SigningKey;
  let previous: SigningKey;
  let stranger: SigningKey;
  let genuine: string;

  const issuer = (key: SigningKey, overrides: Partial<{ issuer: string; audience: string }> = {}) =>
    new TokenIssuer(key, { issuer: 'itp-auth', audience: 'itp', ttlSeconds: 3600, ...overrides });

  beforeAll(async () => {
    const currentJwk = await generateSigningJwk();
    const previousJwk = await generateSigningJwk();
    [current, previous] = (await parseSigningKeys(JSON.stringify([currentJwk, previousJwk]))) as [
      SigningKey,
      SigningKey,
    ];
    [stranger] = (await parseSigningKeys(JSON.stringify([await generateSigningJwk()]))) as [
      SigningKey,
    ];
    db = await createTestDatabase();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      JWT_SIGNING_KEYS: JSON.stringify([currentJwk, previousJwk]),
    });
    await auth.domain.userAdmin.add({ id: 'alice', password: 'alice-password', name: 'Alice' });
    verifier = createJwtVerifier({
      jwksUrl: `${auth.url}/v2/auth/.well-known/jwks.json`,
      issuer: 'itp-auth',
      audience: 'itp',
    });
    const res = await postJson(`${auth.url}/v2/auth/auth-user`, {
      id: 'alice',
      password: 'alice-password',
    });
    genuine = (res.body as { token: string }).token;
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('accepts a token from auth-user (signed with the current key)', async () => {
    const verified = await verifier.verify(genuine);
    expect(verified.userId).toBe('alice');
    expect(verified.claims.iss).toBe('itp-auth');
  });

  it('accepts a token signed with the previous key during the rotation overlap', async () => {
    const { token } = await issuer(previous).issue(ALICE);
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'alice' });
  });

  const claims = () => ({ iss: 'itp-auth', aud: 'itp', sub: 'alice' });

  const tampered: Array<[string, () => Promise<string>]> = [
    [
      'alg none',
      async () => new UnsecuredJWT(claims()).setIssuedAt().setExpirationTime('1h').encode(),
    ],
    [
      'HS256 signed with the published public key (PEM)',
      async () => {
        const pub = (await importJWK(current.publicJwk, 'ES256', {
          extractable: true,
        })) as CryptoKey;
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: current.kid })
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(await exportSPKI(pub)));
      },
    ],
    [
      'HS256 signed with the published JWK',
      async () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: current.kid })
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(JSON.stringify(current.publicJwk))),
    ],
    [
      'expired',
      async () =>
        (
          await new TokenIssuer(
            current,
            { issuer: 'itp-auth', audience: 'itp', ttlSeconds: 60 },
            () => Date.now() - 3600_000,
          ).issue(ALICE)
        ).token,
    ],
    [
      'unknown kid (a key auth-service does not publish)',
      async () => (await issuer(stranger).issue(ALICE)).token,
    ],
    [
      'a published kid with a foreign signature',
      async () => (await issuer({ ...stranger, kid: current.kid }).issue(ALICE)).token,
    ],
    [
      'wrong audience',
      async () => (await issuer(current, { audience: 'other' }).issue(ALICE)).token,
    ],
    ['wrong issuer', async () => (await issuer(current, { issuer: 'evil' }).issue(ALICE)).token],
    [
      'a payload changed after signing (sub → admin)',
      async () => {
        const [h, p, s] = genuine.split('.') as [string, string, string];
        const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as object;
        const forged = Buffer.from(JSON.stringify({ ...payload, sub: 'admin' })).toString(
          'base64url',
        );
        return `${h}.${forged}.${s}`;
      },
    ],
    ['malformed', async () => 'eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln'],
  ];

  it.each(tampered)('refuses %s (401)', async (_label, make) => {
    const err = await verifier.verify(await make()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).code).toBe('401');
  });

  it('auth-user refuses the same tampered tokens for an extension', async () => {
    for (const [, make] of tampered) {
      const res = await postJson(`${auth.url}/v2/auth/auth-user`, {
        id: 'alice',
        password: 'alice-password',
        token: await make(),
      });
      expect(res.status).toBe(401);
    }
  });
});
