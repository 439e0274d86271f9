import type { webcrypto } from 'node:crypto';
import { SignatureAlgorithm, cborDecode, cborEncode } from '@owf/mdoc';
import { verifyEs256 } from './es256.js';
import type { RawSign1 } from './read-device-response.js';

const ALG = 1;

function protectedAlgorithm(protectedBytes: Uint8Array): unknown {
  if (protectedBytes.length === 0) return undefined;
  const headers: unknown = cborDecode(protectedBytes);
  return headers instanceof Map ? headers.get(ALG) : undefined;
}

/**
 * Verifies a COSE_Sign1 (RFC 9052 §4.4) over `payload` with ES256, the algorithm HAIP requires,
 * named in the protected header: Sig_structure = ["Signature1", protected bytes as received,
 * empty external_aad, payload].
 */
export async function verifyCoseSign1Es256(
  sign1: RawSign1,
  payload: Uint8Array,
  publicJwk: webcrypto.JsonWebKey,
): Promise<boolean> {
  if (protectedAlgorithm(sign1.protectedBytes) !== SignatureAlgorithm.ES256) return false;
  const toBeSigned = cborEncode(['Signature1', sign1.protectedBytes, new Uint8Array(), payload]);
  return verifyEs256(publicJwk, toBeSigned, sign1.signature);
}
