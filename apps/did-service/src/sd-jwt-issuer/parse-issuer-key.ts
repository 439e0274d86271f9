import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { SdJwtIssuerImportError } from './sd-jwt-issuer-errors.js';

/**
 * The issuer's private key from the operator's file: a PEM (`PRIVATE KEY` PKCS #8 or `EC PRIVATE
 * KEY` SEC 1, unencrypted) or a private JWK (JSON with `d`). Only an EC key on P-256 passes
 * (ES256, HAIP). Answers the private JWK (kty, crv, x, y, d). Messages never hold key material.
 */
export function parseIssuerPrivateKey(text: string): JWK {
  const key = readPrivateKey(text.trim());
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType !== 'ec' || curve !== 'prime256v1') {
    const what =
      key.asymmetricKeyType === 'ec'
        ? `an EC key on ${curve ?? 'an unknown curve'}`
        : `a ${key.asymmetricKeyType ?? 'unknown'} key`;
    throw new SdJwtIssuerImportError(
      `the key is ${what}, not an EC key on P-256 (prime256v1): SD-JWT VCs are signed ES256 (HAIP)`,
    );
  }
  const { kty, crv, x, y, d } = key.export({ format: 'jwk' });
  return { kty, crv, x, y, d } as JWK;
}

function readPrivateKey(text: string): KeyObject {
  if (text.startsWith('{')) {
    let jwk: JWK;
    try {
      jwk = JSON.parse(text) as JWK;
    } catch {
      throw new SdJwtIssuerImportError('the key file is neither a PEM private key nor JSON (JWK)');
    }
    if (typeof jwk.d !== 'string') {
      throw new SdJwtIssuerImportError('the JWK has no private part (d): give the private key');
    }
    try {
      return createPrivateKey({ key: jwk as never, format: 'jwk' });
    } catch {
      throw new SdJwtIssuerImportError('the JWK is not a usable private key');
    }
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(text)) {
    throw new SdJwtIssuerImportError(
      'the PEM key is encrypted: give it unencrypted (it is sealed with DID_KMS_SECRET_KEY when stored)',
    );
  }
  if (!/-----BEGIN (EC )?PRIVATE KEY-----/.test(text)) {
    throw new SdJwtIssuerImportError(
      'the key file holds no "PRIVATE KEY" or "EC PRIVATE KEY" PEM block nor a JWK',
    );
  }
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new SdJwtIssuerImportError('the PEM private key does not parse');
  }
}
