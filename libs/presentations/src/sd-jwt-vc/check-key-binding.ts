import { KBJwt } from '@sd-jwt/core';
import { CLOCK_SKEW_SECONDS } from './check-validity-window.js';
import type { DecodedPresentation } from './decode-presentation.js';
import { importEs256PublicJwk } from './import-es256-public-jwk.js';
import { refuse } from './refuse.js';
import { sha256Base64url } from './sha256-base64url.js';
import { splitCompactJws } from './split-compact-jws.js';
import { verifyEs256 } from './verify-es256.js';

export interface KeyBindingExpectations {
  nonce: string;
  audience: string;
  nowSeconds: number;
  maxAgeSeconds: number;
}

/**
 * The holder's proof of possession (SD-JWT §4.3): a KB-JWT is there ('key_binding_missing'),
 * `@sd-jwt/core`'s `verifyKB` checks its typ `kb+jwt`, required claims, the signature by the
 * credential's `cnf.jwk` ('key_binding_signature') and the nonce ('key_binding_nonce'); then `aud`
 * is the verifier ('key_binding_audience'), `iat` is at most maxAgeSeconds old and not in the
 * future ('key_binding_stale'), and `sd_hash` hashes exactly what was presented ('sd_hash').
 */
export async function checkKeyBinding(
  decoded: DecodedPresentation,
  credential: Record<string, unknown>,
  expected: KeyBindingExpectations,
): Promise<void> {
  if (decoded.keyBindingJwt === undefined)
    throw refuse('key_binding_missing', 'no key binding JWT');
  const cnf = credential.cnf as { jwk?: unknown } | undefined;
  const holderKey = await importEs256PublicJwk(cnf?.jwk);
  if (holderKey === undefined)
    throw refuse('key_binding_missing', 'the credential has no P-256 cnf.jwk');
  const kb = splitCompactJws(decoded.keyBindingJwt);
  if (kb === undefined) throw refuse('format', 'the key binding JWT is not a compact JWS');
  if (kb.header.alg !== 'ES256')
    throw refuse('key_binding_signature', 'the key binding JWT is not ES256');

  let signatureValid: boolean | undefined;
  try {
    await KBJwt.fromKBEncode(decoded.keyBindingJwt).verifyKB({
      verifier: async (data: string, signature: string) => {
        signatureValid = await verifyEs256(holderKey, data, signature);
        return signatureValid;
      },
      payload: credential,
      nonce: expected.nonce,
    });
  } catch (error) {
    if (signatureValid === undefined)
      throw refuse(
        'format',
        'the key binding JWT lacks typ kb+jwt, iat, aud, nonce or sd_hash',
        error,
      );
    if (!signatureValid)
      throw refuse('key_binding_signature', 'the key binding JWT is not signed by cnf.jwk', error);
    throw refuse('key_binding_nonce', "the key binding JWT's nonce is not the request's", error);
  }
  checkClaims(kb.payload, decoded.withoutKeyBinding, expected);
}

function checkClaims(
  payload: Record<string, unknown>,
  withoutKeyBinding: string,
  expected: KeyBindingExpectations,
): void {
  if (payload.aud !== expected.audience) {
    throw refuse('key_binding_audience', "the key binding JWT's aud is not this verifier");
  }
  const iat = payload.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat))
    throw refuse('format', "the key binding JWT's iat is not a number");
  if (expected.nowSeconds - iat > expected.maxAgeSeconds) {
    throw refuse(
      'key_binding_stale',
      `the key binding JWT is older than ${expected.maxAgeSeconds} s`,
    );
  }
  if (iat - expected.nowSeconds > CLOCK_SKEW_SECONDS) {
    throw refuse('key_binding_stale', "the key binding JWT's iat is in the future");
  }
  if (payload.sd_hash !== sha256Base64url(withoutKeyBinding)) {
    throw refuse('sd_hash', "the key binding JWT's sd_hash does not hash what was presented");
  }
}
