// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { JWK } from 'jose';
import { loadConfig } from '@itp/service-kit';
import { createCa, issueLeaf, type IssuedLeaf } from '@itp/x509';
import { authServiceConfigSchema } from '../config.js';
import { pemChainToX5c, verifierIdentity } from './verifier-identity.js';

let leaf: IssuedLeaf;
let other: IssuedLeaf;
let chainPem: string;

beforeAll(async () => {
  const ca = await createCa({ subject: 'CN=Verifier CA' });
  leaf = await issueLeaf(ca, { subject: 'CN=api.example.test', dnsNames: ['api.example.test'] });
  other = await issueLeaf(ca, { subject: 'CN=other.example', dnsNames: ['other.example'] });
  chainPem = `${leaf.certificate.toString('pem')}\n${ca.pem}`;
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => '',
    (err: unknown) => (err as Error).message,
  );

describe('verifierIdentity (VERIFIER_SIGNING_KEY + VERIFIER_CERTIFICATE_CHAIN)', () => {
  it('makes the x509_san_dns client of the leaf whose key and SAN dNSName match', async () => {
    const x5c = pemChainToX5c(chainPem);
    expect(x5c).toEqual(leaf.x5c);
    const identity = await verifierIdentity(leaf.privateKeyJwk as JWK, x5c, 'api.example.test');
    expect(identity.clientId).toBe('x509_san_dns:api.example.test');
  });

  it('refuses a chain whose leaf is for another key or another host, a public key, no certificate — without echoing the key', async () => {
    const x5c = pemChainToX5c(chainPem);
    const { d, ...publicJwk } = leaf.privateKeyJwk as JWK;
    expect(
      await refusal(verifierIdentity(other.privateKeyJwk as JWK, x5c, 'api.example.test')),
    ).toMatch(/leaf\) certificate is not for VERIFIER_SIGNING_KEY/);
    expect(await refusal(verifierIdentity(leaf.privateKeyJwk as JWK, x5c, 'evil.example'))).toMatch(
      /SAN dNSNames do not hold PUBLIC_URL's host evil\.example/,
    );
    const noKey = await refusal(verifierIdentity(publicJwk, x5c, 'api.example.test'));
    expect(noKey).toMatch(/must be a private EC P-256 JWK/);
    expect(
      await refusal(verifierIdentity(leaf.privateKeyJwk as JWK, [], 'api.example.test')),
    ).toMatch(/holds no PEM certificate/);
    const otherD = (other.privateKeyJwk as JWK).d ?? '';
    expect(
      await refusal(verifierIdentity(other.privateKeyJwk as JWK, x5c, 'api.example.test')),
    ).not.toContain(otherD);
    expect(d).toBeDefined();
  });

  it('takes both VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN or neither', () => {
    const base = { APP_ENV: 'development', PORT: '0', DATA_DIR: '/tmp/unused' };
    expect(() => loadConfig(authServiceConfigSchema, base)).not.toThrow();
    expect(() =>
      loadConfig(authServiceConfigSchema, { ...base, VERIFIER_SIGNING_KEY: '{}' }),
    ).toThrow(/VERIFIER_CERTIFICATE_CHAIN/);
    expect(() =>
      loadConfig(authServiceConfigSchema, { ...base, VERIFIER_CERTIFICATE_CHAIN: chainPem }),
    ).toThrow(/VERIFIER_SIGNING_KEY/);
  });
});
