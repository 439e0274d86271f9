import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint } from 'jose';
import {
  SigningKeysError,
  generateRsaSigningJwk,
  generateSigningJwk,
  parseSigningKeySet,
  parseSigningKeys,
} from './signing-keys.js';

describe('parseSigningKeys', () => {
  it('reads an array of private JWKs, first = current, publishing public parts only', async () => {
    const a = await generateSigningJwk();
    const b = await generateSigningJwk();
    const keys = await parseSigningKeys(JSON.stringify([a, b]));
    expect(keys.map((k) => k.kid)).toEqual([a.kid, b.kid]);
    expect(keys[0]!.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: a.x,
      y: a.y,
      kid: a.kid,
      alg: 'ES256',
      use: 'sig',
    });
    expect(JSON.stringify(keys.map((k) => k.publicJwk))).not.toContain(a.d!);
  });

  it('accepts { keys: [...] } and derives a missing kid from the RFC 7638 thumbprint', async () => {
    const { kid: _kid, ...jwk } = await generateSigningJwk();
    const [key] = await parseSigningKeys(JSON.stringify({ keys: [jwk] }));
    expect(key!.kid).toBe(
      await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }),
    );
  });

  it('refuses bad input without echoing key material', async () => {
    const good = await generateSigningJwk();
    const { d: _d, ...publicOnly } = good;
    const bad: Array<[string, RegExp]> = [
      ['not json', /not valid JSON/],
      ['[]', /non-empty/],
      ['{}', /non-empty/],
      [JSON.stringify([publicOnly]), /key #0 is not a private EC P-256 JWK/],
      [JSON.stringify([{ ...good, crv: 'P-384' }]), /key #0/],
      [JSON.stringify([{ ...good, alg: 'HS256' }]), /key #0/],
      [JSON.stringify([good, good]), /duplicate kid/],
      [JSON.stringify([{ ...good, d: 'AAAA' }]), /could not be imported/],
    ];
    for (const [input, message] of bad) {
      const err = await parseSigningKeys(input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SigningKeysError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain(good.d!);
    }
  });

  it('keeps RSA keys apart for RS256: never a platform signing key, kid from the thumbprint', async () => {
    const ec = await generateSigningJwk();
    const { kid: _kid, alg: _alg, use: _use, ...rsa } = await generateRsaSigningJwk();
    const set = await parseSigningKeySet(JSON.stringify([rsa, ec]));
    expect(set.keys.map((k) => k.kid)).toEqual([ec.kid]);
    expect(set.rsaKeys).toEqual([
      {
        ...rsa,
        kid: await calculateJwkThumbprint({ kty: 'RSA', n: rsa.n!, e: rsa.e! }),
        alg: 'RS256',
        use: 'sig',
      },
    ]);
    expect(await parseSigningKeys(JSON.stringify([rsa, ec]))).toHaveLength(1);
  });

  it('refuses RSA keys under 2048 bits, incomplete ones, and a set without an EC key', async () => {
    const ec = await generateSigningJwk();
    const rsa = await generateRsaSigningJwk();
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'jwk',
    });
    const { qi: _qi, ...incomplete } = rsa;
    const bad: Array<[unknown[], RegExp]> = [
      [[ec, small], /key #1 .*RSA key of 1024 bits: RS256 needs at least 2048/],
      [[ec, incomplete], /key #1 is not a private EC P-256 JWK .* nor a private RSA JWK/],
      [[ec, { ...rsa, alg: 'PS256' }], /key #1/],
      [[rsa], /needs at least one private EC P-256 JWK/],
      [[ec, rsa, rsa], /duplicate kid/],
    ];
    for (const [keys, message] of bad) {
      const err = await parseSigningKeySet(JSON.stringify(keys)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SigningKeysError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain(rsa.d!);
    }
  });
});
