import { createPrivateKey, sign as signWithKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { createCa, issueLeaf, type CreatedCa } from '@itp/x509';
import type { SdJwtIssuerKey, SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { sdJwtVcSigner } from '../sd-jwt-issuer/sd-jwt-vc-signer.js';

/** A test SD-JWT issuer key: the port's key plus what a test needs to check or forge with. */
export interface TestSdJwtIssuerKey extends SdJwtIssuerKey {
  /** The CA that issued the leaf (PEM): the trust anchor. */
  caPem: string;
  /** The CA itself, to issue another leaf under it (a certificate renewal with a new key). */
  ca: CreatedCa;
  /** The private key (tests only: never served or logged). */
  privateJwk: JWK;
}

export interface TestSdJwtIssuerKeyOptions {
  /** PUBLIC_URL the key's did:web and SAN name (default https://api.did-harness.test). */
  publicUrl?: string;
  /** Issue the leaf under this CA (default: a new test CA). */
  ca?: CreatedCa;
}

/**
 * A P-256 SD-JWT issuer key with an x5c chain (leaf issued by a test CA, then the CA) as the
 * SD-JWT issuer feature makes in development: for specs of issuance, status lists and revocation.
 */
export async function createTestSdJwtIssuerKey(
  opts: TestSdJwtIssuerKeyOptions = {},
): Promise<TestSdJwtIssuerKey> {
  const url = new URL(opts.publicUrl ?? 'https://api.did-harness.test');
  const ca = opts.ca ?? (await createCa({ subject: 'CN=ITP test SD-JWT issuer CA' }));
  const leaf = await issueLeaf(ca, {
    subject: `CN=${url.hostname}`,
    dnsNames: [url.hostname],
    keyUsage: 'signing',
  });
  const privateJwk = leaf.privateKeyJwk as JWK;
  const { kty, crv, x, y } = privateJwk;
  const publicJwk: JWK = { kty, crv, x, y };
  const privateKey: KeyObject = createPrivateKey({ key: privateJwk as never, format: 'jwk' });
  const did = `did:web:${url.host.replace(':', '%3A')}`;
  return {
    sign: async (signingInput) =>
      signWithKey('sha256', Buffer.from(signingInput), {
        key: privateKey,
        dsaEncoding: 'ieee-p1363',
      }).toString('base64url'),
    x5c: leaf.x5c,
    publicJwk,
    did,
    kid: `${did}#${await calculateJwkThumbprint(publicJwk)}`,
    caPem: ca.pem,
    ca,
    privateJwk,
  };
}

/**
 * SdJwtIssuerKeys over test keys, as the stored keys behave: `use` makes a key current (a
 * renewal or an import) and the earlier ones stay published until `retire` (their certificate
 * expired).
 */
export class TestSdJwtIssuerKeys implements SdJwtIssuerKeys {
  private keys: TestSdJwtIssuerKey[];

  constructor(key: TestSdJwtIssuerKey) {
    this.keys = [key];
  }

  use(key: TestSdJwtIssuerKey): void {
    this.keys = [key, ...this.keys.filter((k) => k !== key)];
  }

  /** No longer published (the current key stays). */
  retire(key: TestSdJwtIssuerKey): void {
    this.keys = this.keys.filter((k, index) => index === 0 || k !== key);
  }

  async current(): Promise<SdJwtIssuerKey> {
    return this.keys[0] as TestSdJwtIssuerKey;
  }

  /** The current key, then the earlier ones still published. */
  async published(): Promise<SdJwtIssuerKey[]> {
    return [...this.keys];
  }

  async trustAnchorsPem(): Promise<string[]> {
    return [...new Set(this.keys.map((k) => k.caPem))];
  }
}

/**
 * An SD-JWT VC (`typ` dc+sd-jwt, header x5c) signed by `key` through @sd-jwt/sd-jwt-vc, with
 * `name` selectively disclosable: as OpenID4VCI issues them, for specs.
 */
export async function issueTestSdJwtVc(
  key: SdJwtIssuerKey,
  payload: Omit<SdJwtVcPayload, 'vct'> & { vct?: string; name?: string },
): Promise<string> {
  const issuer = sdJwtVcSigner(key);
  const now = Math.floor(Date.now() / 1000);
  return issuer.issue(
    {
      vct: 'https://api.did-harness.test/v2/did/oid4vci/vct/profile',
      iat: now,
      exp: now + 3600,
      name: 'Test User',
      ...payload,
    },
    { _sd: ['name'] },
    { header: { typ: 'dc+sd-jwt', x5c: key.x5c } },
  );
}
