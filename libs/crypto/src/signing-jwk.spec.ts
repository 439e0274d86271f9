import { describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint, importJWK, SignJWT, jwtVerify } from 'jose';
import { newEcSigningJwk, newRsaSigningJwk } from './signing-jwk.js';

describe('signing JWKs', () => {
  it.each([
    ['EC P-256 / ES256', newEcSigningJwk, 'ES256'],
    ['RSA / RS256', newRsaSigningJwk, 'RS256'],
  ])(
    '%s: a private JWK whose kid is its RFC 7638 thumbprint, and that signs',
    async (_label, make, alg) => {
      const jwk = make();
      expect(jwk).toMatchObject({ alg, use: 'sig' });
      expect(jwk.kid).toBe(await calculateJwkThumbprint(jwk));
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
      const token = await new SignJWT({ sub: 'x' })
        .setProtectedHeader({ alg, kid: jwk.kid })
        .sign(await importJWK(jwk, alg));
      await expect(jwtVerify(token, await importJWK(publicJwk, alg))).resolves.toBeDefined();
      expect(make().kid).not.toBe(jwk.kid);
    },
  );
});
