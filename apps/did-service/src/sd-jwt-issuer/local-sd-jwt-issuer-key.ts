import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { X509Certificate } from '@itp/x509';
import type { SdJwtIssuerKey } from './sd-jwt-issuer-key.js';

/** What `sd-jwt-issuer show` and the start-up checks tell about a key (never its private part). */
export interface SdJwtIssuerKeyInfo {
  thumbprint: string;
  did: string;
  kid: string;
  /** The leaf certificate's subject, SAN dNSName entries, validity. */
  subject: string;
  dnsNames: string[];
  notBefore: Date;
  notAfter: Date;
}

/**
 * An SD-JWT issuer key held in memory: signs ES256 with node:crypto (raw r‖s, JWS form). The
 * private JWK is turned into a KeyObject once and not kept as a property: JSON.stringify or a
 * logger given this object sees the public parts only.
 */
export class LocalSdJwtIssuerKey implements SdJwtIssuerKey {
  readonly #privateKey: KeyObject;

  private constructor(
    privateKey: KeyObject,
    readonly publicJwk: JWK,
    readonly x5c: string[],
    readonly did: string,
    readonly thumbprint: string,
    /** The chain's trust anchor (PEM): what verifiers trust for this key. */
    readonly rootPem: string,
  ) {
    this.#privateKey = privateKey;
  }

  /** `privateJwk`: a P-256 private JWK (checked on import); `x5c`: leaf first, no trust anchor. */
  static async create(opts: {
    privateJwk: JWK;
    x5c: string[];
    did: string;
    rootPem: string;
  }): Promise<LocalSdJwtIssuerKey> {
    const privateKey = createPrivateKey({ key: opts.privateJwk as never, format: 'jwk' });
    const publicJwk = publicP256Jwk(opts.privateJwk);
    const thumbprint = await issuerKeyThumbprint(publicJwk);
    return new LocalSdJwtIssuerKey(
      privateKey,
      publicJwk,
      [...opts.x5c],
      opts.did,
      thumbprint,
      opts.rootPem,
    );
  }

  get kid(): string {
    return `${this.did}#${this.thumbprint}`;
  }

  async sign(signingInput: string): Promise<string> {
    return sign('sha256', Buffer.from(signingInput, 'utf8'), {
      key: this.#privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
  }

  /** The leaf certificate (x5c[0]). */
  leaf(): X509Certificate {
    return LocalSdJwtIssuerKey.certificate(this.x5c[0] ?? '');
  }

  /** A certificate from its base64 DER. */
  static certificate(base64Der: string): X509Certificate {
    return new X509Certificate(Buffer.from(base64Der, 'base64'));
  }

  info(): SdJwtIssuerKeyInfo {
    const leaf = this.leaf();
    return {
      thumbprint: this.thumbprint,
      did: this.did,
      kid: this.kid,
      subject: leaf.subject,
      dnsNames: leafDnsNames(leaf),
      notBefore: leaf.notBefore,
      notAfter: leaf.notAfter,
    };
  }

  toJSON(): Record<string, unknown> {
    return { kid: this.kid, publicJwk: this.publicJwk };
  }
}

/** The public members of a P-256 JWK (kty, crv, x, y): what the did document and `x5c` name. */
export function publicP256Jwk(jwk: JWK): JWK {
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/** RFC 7638 thumbprint (SHA-256, base64url) of a P-256 key's public part. */
export function issuerKeyThumbprint(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(publicP256Jwk(jwk), 'sha256');
}

const SUBJECT_ALT_NAME = '2.5.29.17';

/** A certificate's SAN dNSName entries (lower case). */
export function leafDnsNames(leaf: X509Certificate): string[] {
  const names: string[] = [];
  for (const extension of leaf.extensions) {
    if (extension.type !== SUBJECT_ALT_NAME) continue;
    const items = (extension as { names?: { items?: Array<{ type: string; value: string }> } })
      .names?.items;
    for (const item of items ?? []) if (item.type === 'dns') names.push(item.value.toLowerCase());
  }
  return names;
}
