import { describe, expect, it } from '@jest/globals';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader } from 'jose';
import { createKeySetJwtVerifier } from '@itp/auth-jwt';
import { generateSigningJwk, parseSigningKeys } from './signing-keys.js';
import { TokenIssuer } from './token-issuer.js';

const alice = { id: 'alice', tokensValidAfter: 0 };

describe('TokenIssuer', () => {
  it('signs ES256 tokens with kid, iss, aud, sub, iat, auth_time, exp and jti', async () => {
    const [key] = await parseSigningKeys(JSON.stringify([await generateSigningJwk()]));
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const issuer = new TokenIssuer(
      key!,
      { issuer: 'iss-x', audience: 'aud-y', ttlSeconds: 600 },
      () => now,
    );
    const { token, expiresAt } = await issuer.issue(alice);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: key!.kid, typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toEqual({
      iss: 'iss-x',
      aud: 'aud-y',
      sub: 'alice',
      iat: now / 1000,
      auth_time: now / 1000,
      exp: now / 1000 + 600,
      jti: expect.any(String),
    });
    expect(expiresAt).toBe(now / 1000 + 600);
    const second = await issuer.issue(alice);
    expect(decodeJwt(second.token).jti).not.toBe(claims.jti);
  });

  it('never dates a token before the user epoch (a login in the second of a logout everywhere)', async () => {
    const [key] = await parseSigningKeys(JSON.stringify([await generateSigningJwk()]));
    const now = Date.UTC(2030, 0, 1, 12, 0, 0) + 300;
    const epoch = Math.floor(now / 1000) + 1;
    const issuer = new TokenIssuer(key!, { issuer: 'i', audience: 'a', ttlSeconds: 60 }, () => now);
    const claims = decodeJwt((await issuer.issue({ id: 'alice', tokensValidAfter: epoch })).token);
    expect(claims).toMatchObject({ iat: epoch, auth_time: epoch, exp: epoch + 60 });
  });

  it('never expires before the floor given (token extension)', async () => {
    const [key] = await parseSigningKeys(JSON.stringify([await generateSigningJwk()]));
    const issuer = new TokenIssuer(key!, { issuer: 'i', audience: 'a', ttlSeconds: 60 });
    const floor = Math.floor(Date.now() / 1000) + 10_000;
    expect((await issuer.issue(alice, floor)).expiresAt).toBe(floor);
  });

  it('issues tokens the shared verifier accepts with the public keys', async () => {
    const [key] = await parseSigningKeys(JSON.stringify([await generateSigningJwk()]));
    const issuer = new TokenIssuer(key!, { issuer: 'itp-auth', audience: 'itp', ttlSeconds: 60 });
    const verifier = createKeySetJwtVerifier({
      keySet: createLocalJWKSet({ keys: [key!.publicJwk] }),
      issuer: 'itp-auth',
      audience: 'itp',
    });
    const { token } = await issuer.issue({ id: 'bob', tokensValidAfter: 0 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'bob' });
  });
});
