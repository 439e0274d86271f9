import { X509Certificate } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import { ConfigError } from '@itp/service-kit';

/** Who signs the request objects: `x509_san_dns:<host>`, its key and certificate chain. */
export interface VerifierIdentity {
  /** The OpenID4VP client_id: `x509_san_dns:<PUBLIC_URL host>`. */
  clientId: string;
  privateKey: Awaited<ReturnType<typeof importJWK>>;
  /** The private JWK as configured (it keys the sealing of the ephemeral keys). */
  privateJwk: JWK;
  /** base64 DER, leaf first (the request object's `x5c`). */
  x5c: string[];
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle as x5c entries (base64 DER), in order. */
export function pemChainToX5c(pem: string): string[] {
  return [...pem.matchAll(PEM_BLOCK)].map((match) => (match[1] ?? '').replace(/\s+/g, ''));
}

/** The leaf's SAN dNSNames (node's `DNS:a, DNS:b` text). */
function dnsNamesOf(leaf: X509Certificate): string[] {
  return (leaf.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
}

/**
 * The verifier of `host` from a private P-256 JWK and its chain (x5c, leaf first). Refused as a
 * ConfigError (no start): a key that is not a private P-256 EC JWK, no certificate, a leaf whose
 * key is not this key, or whose SAN dNSNames do not hold `host`.
 */
export async function verifierIdentity(
  privateJwk: JWK,
  x5c: string[],
  host: string,
): Promise<VerifierIdentity> {
  const issues: string[] = [];
  if (privateJwk.kty !== 'EC' || privateJwk.crv !== 'P-256' || typeof privateJwk.d !== 'string') {
    throw new ConfigError([
      'VERIFIER_SIGNING_KEY: must be a private EC P-256 JWK (kty EC, crv P-256, d)',
    ]);
  }
  const [leafDer] = x5c;
  if (!leafDer) throw new ConfigError(['VERIFIER_CERTIFICATE_CHAIN: holds no PEM certificate']);
  const leaf = new X509Certificate(Buffer.from(leafDer, 'base64'));
  const leafJwk = leaf.publicKey.export({ format: 'jwk' });
  if (leafJwk.x !== privateJwk.x || leafJwk.y !== privateJwk.y) {
    issues.push(
      'VERIFIER_CERTIFICATE_CHAIN: its first (leaf) certificate is not for VERIFIER_SIGNING_KEY',
    );
  }
  if (!dnsNamesOf(leaf).includes(host)) {
    issues.push(
      `VERIFIER_CERTIFICATE_CHAIN: the leaf's SAN dNSNames do not hold PUBLIC_URL's host ${host}`,
    );
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    clientId: `x509_san_dns:${host}`,
    privateKey: await importJWK({ ...privateJwk, alg: 'ES256' }, 'ES256'),
    privateJwk,
    x5c,
  };
}

/** VERIFIER_SIGNING_KEY's JSON, or a ConfigError. */
export function parseVerifierSigningKey(json: string): JWK {
  try {
    return JSON.parse(json) as JWK;
  } catch {
    throw new ConfigError(['VERIFIER_SIGNING_KEY: must be a JSON private JWK (EC P-256)']);
  }
}
