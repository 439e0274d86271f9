import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, exportJWK, importJWK, type JWK } from 'jose';
import { NodeEs256SigningKey, providerSigningKey } from './oidc-provider.js';

const p256 = async (): Promise<JWK> => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...(await exportJWK(privateKey)), kid: 'key-1', alg: 'ES256' };
};

describe('NodeEs256SigningKey (the provider signs ES256 through node:crypto)', () => {
  it('makes JWS signatures the public JWK verifies, and a tampered input does not', async () => {
    const jwk = await p256();
    const key = new NodeEs256SigningKey(jwk);
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'key-1' })).toString(
      'base64url',
    );
    const payload = Buffer.from(JSON.stringify({ sub: 'demo' })).toString('base64url');
    const signature = Buffer.from(await key.sign(Buffer.from(`${header}.${payload}`)));
    expect(signature).toHaveLength(64);
    const { d: _d, ...publicJwk } = jwk;
    const verifier = await importJWK(publicJwk, 'ES256');
    const jws = `${header}.${payload}.${signature.toString('base64url')}`;
    const { payload: verified } = await compactVerify(jws, verifier);
    expect(JSON.parse(Buffer.from(verified).toString())).toEqual({ sub: 'demo' });
    const other = Buffer.from(JSON.stringify({ sub: 'other' })).toString('base64url');
    await expect(
      compactVerify(`${header}.${other}.${signature.toString('base64url')}`, verifier),
    ).rejects.toThrow();
  });

  it('publishes the same public key, kid and alg, never the private part', async () => {
    const jwk = await p256();
    const key = new NodeEs256SigningKey(jwk);
    expect(key.kid).toBe('key-1');
    expect(key.alg).toBe('ES256');
    expect(key.use).toBe('sig');
    expect([key.kty, key.crv, key.x, key.y]).toEqual([jwk.kty, jwk.crv, jwk.x, jwk.y]);
    const exported = key.keyObject().export({ format: 'jwk' });
    expect(exported).not.toHaveProperty('d');
    expect(exported).toMatchObject({ x: jwk.x, y: jwk.y });
  });

  it('wraps private P-256 keys only (RSA and public keys stay JWKs)', async () => {
    const ec = await p256();
    expect(providerSigningKey(ec)).toBeInstanceOf(NodeEs256SigningKey);
    const { d: _d, ...publicOnly } = ec;
    expect(providerSigningKey(publicOnly)).toBe(publicOnly);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsa = await exportJWK(privateKey);
    expect(providerSigningKey(rsa)).toBe(rsa);
  });
});
