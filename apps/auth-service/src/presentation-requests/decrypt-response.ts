import { compactDecrypt, importJWK, type JWK } from 'jose';
import { OAuthError } from '../oid4vp/oauth-error.js';
import { RESPONSE_ENCRYPTION_ALG, RESPONSE_ENCRYPTION_ENCS } from './ephemeral-encryption-key.js';

/** 400 invalid_request: the response JWE does not decrypt with the request's key, or is no JSON object. */
const undecryptable = (why: string) => new OAuthError(400, 'invalid_request', why);

/**
 * The authorization response (OpenID4VP 1.0 §8.3.1) in a `direct_post.jwt` JWE: ECDH-ES to the
 * request's ephemeral key, A128GCM or A256GCM; its payload a JSON object.
 */
export async function decryptResponse(
  jwe: string,
  privateJwk: JWK,
): Promise<Record<string, unknown>> {
  let plaintext: Uint8Array;
  try {
    const key = await importJWK(
      { ...privateJwk, alg: RESPONSE_ENCRYPTION_ALG },
      RESPONSE_ENCRYPTION_ALG,
    );
    ({ plaintext } = await compactDecrypt(jwe, key, {
      keyManagementAlgorithms: [RESPONSE_ENCRYPTION_ALG],
      contentEncryptionAlgorithms: [...RESPONSE_ENCRYPTION_ENCS],
    }));
  } catch {
    throw undecryptable('The response does not decrypt with this request’s key');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw undecryptable('The decrypted response is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw undecryptable('The decrypted response is not a JSON object');
  }
  return payload as Record<string, unknown>;
}
