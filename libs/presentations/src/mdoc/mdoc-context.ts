import { webcrypto } from 'node:crypto';
import { SignatureAlgorithm, type MdocContext } from '@owf/mdoc';
import { signEs256, verifyEs256 } from './es256.js';
import { mdocX509 } from './mdoc-x509.js';
import { UnsupportedMdocOperationError } from './unsupported-mdoc-operation-error.js';

const DIGESTS = { 'SHA-256': 'SHA-256', 'SHA-384': 'SHA-384', 'SHA-512': 'SHA-512' } as const;

function unsupported(operation: string): never {
  throw new UnsupportedMdocOperationError(operation);
}

/**
 * The callbacks @owf/mdoc 0.6.0 needs, on Node's WebCrypto: digests, randomness, COSE_Sign1 with
 * ES256 (raw r||s signatures, as COSE and WebCrypto both have them) and the X.509 callbacks
 * (chains by @itp/x509). Device MAC (ECDH-derived HMAC keys) is refused: OpenID4VP has no reader
 * ephemeral key.
 */
export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => webcrypto.getRandomValues(new Uint8Array(length)),
    digest: async ({ digestAlgorithm, bytes }) =>
      new Uint8Array(await webcrypto.subtle.digest(DIGESTS[digestAlgorithm], bytes)),
    calculateEphemeralMacKey: () => unsupported('device MAC (calculateEphemeralMacKey)'),
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key, algorithm }) => {
        if (algorithm !== undefined && algorithm !== SignatureAlgorithm.ES256)
          unsupported(`COSE algorithm ${algorithm}`);
        return signEs256(key.jwk as webcrypto.JsonWebKey, toBeSigned);
      },
      // A detached payload set by the verifier wins over one the signature carries (@owf/mdoc's
      // toBeSigned prefers the carried one: another session's DeviceAuthentication would pass).
      verify: ({ key, sign1 }) =>
        (sign1.detachedPayload === undefined || sign1.payload === null) &&
        sign1.signatureAlgorithmName === 'ES256' &&
        verifyEs256(key.jwk as webcrypto.JsonWebKey, sign1.toBeSigned, sign1.signature),
    },
    mac0: {
      sign: () => unsupported('COSE_Mac0'),
      verify: () => unsupported('COSE_Mac0'),
    },
  },
  x509: mdocX509,
};
