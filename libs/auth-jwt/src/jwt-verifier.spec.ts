import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  SignJWT,
  UnsecuredJWT,
  createLocalJWKSet,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import { ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import { createJwtVerifier, createKeySetJwtVerifier } from './jwt-verifier.js';

const ISSUER = 'itp-auth';
const AUDIENCE = 'itp';

interface TestKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function makeKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

function sign(key: TestKey, claims: Record<string, unknown> = {}, expiresIn = '1h') {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .setJti('jti-1')
    .sign(key.privateKey);
}

/** A real HTTP JWKS endpoint whose published keys the test can change, counting fetches. */
class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((_req, res) => {
      this.fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}

describe('createJwtVerifier against a JWKS served over HTTP', () => {
  const jwks = new JwksServer();
  let current: TestKey;
  let other: TestKey;

  beforeAll(async () => {
    current = await makeKey('k-current');
    other = await makeKey('k-other');
    jwks.keys = [current.publicJwk];
    await jwks.start();
  });

  afterAll(() => jwks.stop());

  const verifier = (cooldownMs = 30_000) =>
    createJwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, cooldownMs });

  it('accepts a good token and returns the user id and claims', async () => {
    const result = await verifier().verify(await sign(current));
    expect(result.userId).toBe('alice');
    expect(result.claims).toMatchObject({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', jti: 'jti-1' });
  });

  it('fetches the key set once and serves later tokens from the cache', async () => {
    const v = verifier();
    const before = jwks.fetches;
    for (let i = 0; i < 5; i += 1) await v.verify(await sign(current));
    expect(jwks.fetches - before).toBe(1);
  });

  const refused: Array<[string, () => Promise<string>, string]> = [
    [
      'alg none',
      async () =>
        new UnsecuredJWT({})
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject('alice')
          .setIssuedAt()
          .setExpirationTime('1h')
          .encode(),
      'algorithm not allowed',
    ],
    [
      'HS256 signed with the public key (algorithm confusion)',
      async () => {
        const publicKey = await importJWK(current.publicJwk, 'ES256', { extractable: true });
        const pem = await exportSPKI(publicKey as CryptoKey);
        return new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: current.kid })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject('alice')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(pem));
      },
      'algorithm not allowed',
    ],
    [
      'HS256 signed with the public JWK JSON',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: current.kid })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject('alice')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(JSON.stringify(current.publicJwk))),
      'algorithm not allowed',
    ],
    [
      'expired',
      () => sign(current, { iat: Math.floor(Date.now() / 1000) - 7200 }, '-1h'),
      'expired',
    ],
    ['unknown kid', () => sign(other), 'no matching key'],
    [
      'a known kid but signed by another key',
      () => sign({ ...other, kid: current.kid }),
      'bad signature',
    ],
    [
      'wrong audience',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', kid: current.kid })
          .setIssuer(ISSUER)
          .setAudience('someone-else')
          .setSubject('alice')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(current.privateKey),
      'claim aud check_failed',
    ],
    [
      'wrong issuer',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', kid: current.kid })
          .setIssuer('evil')
          .setAudience(AUDIENCE)
          .setSubject('alice')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(current.privateKey),
      'claim iss check_failed',
    ],
    [
      'no subject',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', kid: current.kid })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(current.privateKey),
      'claim sub missing',
    ],
    [
      'a payload edited after signing',
      async () => {
        const [h, , s] = (await sign(current)).split('.');
        const forged = Buffer.from(
          JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'root', iat: 1, exp: 4102444800 }),
        ).toString('base64url');
        return `${h}.${forged}.${s}`;
      },
      'bad signature',
    ],
    ['malformed', async () => 'not-a-jwt', 'ERR_JWS_INVALID'],
    ['empty', async () => '', 'missing or oversized'],
  ];

  it.each(refused)('refuses %s with UnauthorizedError', async (_label, make, reason) => {
    const token = await make();
    const err = await verifier()
      .verify(token)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).code).toBe('401');
    expect((err as UnauthorizedError).message).toBe('Invalid or expired token');
    expect((err as UnauthorizedError).details).toEqual({ reason });
  });

  it('picks up a key published later (rotation) by fetching again on an unknown kid', async () => {
    const v = verifier(0);
    await v.verify(await sign(current));
    const next = await makeKey('k-next');
    jwks.keys = [next.publicJwk, current.publicJwk];
    try {
      await expect(v.verify(await sign(next))).resolves.toMatchObject({ userId: 'alice' });
      await expect(v.verify(await sign(current))).resolves.toMatchObject({ userId: 'alice' });
    } finally {
      jwks.keys = [current.publicJwk];
    }
  });

  it('reports an unreachable key set as 503, not as a bad token', async () => {
    const down = new JwksServer();
    await down.start();
    const url = down.url;
    await down.stop();
    const v = createJwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: AUDIENCE });
    const err = await v.verify(await sign(current)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('the verified-token cache', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await makeKey('k-cache');
  });

  /** A verifier on a fake clock whose key look-ups (one per signature check) are counted. */
  function counted(maxAgeMs = 60_000) {
    const local = createLocalJWKSet({ keys: [key.publicJwk] });
    const clock = { now: Date.now() };
    const state = { lookups: 0 };
    const verifier = createKeySetJwtVerifier({
      keySet: (header, token) => {
        state.lookups += 1;
        return local(header, token);
      },
      issuer: ISSUER,
      audience: AUDIENCE,
      clockToleranceSeconds: 0,
      verifiedCache: { maxAgeMs, maxChars: 1_000_000 },
      now: () => clock.now,
    });
    return { verifier, clock, state };
  }

  it('checks the signature of a token once, and the same token again after maxAgeMs', async () => {
    const { verifier, clock, state } = counted(60_000);
    const token = await sign(key);
    for (let i = 0; i < 3; i++) {
      await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'alice' });
    }
    expect(state.lookups).toBe(1);
    clock.now += 60_001;
    await verifier.verify(token);
    expect(state.lookups).toBe(2);
  });

  it('never serves a remembered token past its exp', async () => {
    const { verifier, clock } = counted(10 * 60_000);
    const token = await sign(key, {}, '30s');
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'alice' });
    clock.now += 31_000;
    const err = await verifier.verify(token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).details).toEqual({ reason: 'expired' });
  });

  it('remembers nothing for a refused token: a forged one is refused every time', async () => {
    const { verifier, state } = counted();
    const good = await sign(key);
    await verifier.verify(good);
    const [h, , sig] = good.split('.');
    const forged = `${h}.${Buffer.from(
      JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'root', iat: 1, exp: 4102444800 }),
    ).toString('base64url')}.${sig}`;
    for (let i = 0; i < 2; i++) {
      await expect(verifier.verify(forged)).rejects.toBeInstanceOf(UnauthorizedError);
    }
    expect(state.lookups).toBe(3);
  });

  it('hands out results nobody can change for the next caller', async () => {
    const { verifier } = counted();
    const token = await sign(key);
    const first = await verifier.verify(token);
    expect(() => {
      (first as { userId: string }).userId = 'mallory';
    }).toThrow(TypeError);
    expect((await verifier.verify(token)).userId).toBe('alice');
  });
});
