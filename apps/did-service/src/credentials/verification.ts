import type { VerificationFailureCode } from '@itp/schemas';

/** Why a VC / VP did not verify: `error` of a verification result with `verified: false`. */
export interface VerificationFailure {
  verified: false;
  error: { code: VerificationFailureCode; message: string };
}

/**
 * What did-jwt-vc returns for a verified JWT, as verify-vc / verify-vp answer it (interface
 * §2.6): didResolutionResult, payload, jwt, verified, policies, issuer, signer, plus
 * verifiableCredential or verifiablePresentation.
 */
export interface VerificationSuccess {
  verified: true;
  payload: Record<string, unknown>;
  didResolutionResult: Record<string, unknown>;
  issuer: string;
  signer: Record<string, unknown>;
  jwt: string;
  policies: Record<string, unknown>;
  verifiableCredential?: Record<string, unknown>;
  verifiablePresentation?: Record<string, unknown>;
  [member: string]: unknown;
}

export type Verification = VerificationSuccess | VerificationFailure;

export function failure(code: VerificationFailureCode, message: string): VerificationFailure {
  return { verified: false, error: { code, message } };
}

/**
 * A failure from Veramo / did-jwt(-vc) as a stable code and its message. did-jwt prefixes its
 * messages with an error code (`invalid_signature: …`, `invalid_jwt: JWT has expired …`).
 */
export function failureFromVeramo(
  error: { message?: unknown; errorCode?: unknown } | undefined,
): VerificationFailure {
  if (typeof error?.message !== 'string' || !error.message)
    return failure('invalid_jwt', 'verification failed');
  const message = error.message;
  const errorCode = typeof error?.errorCode === 'string' ? error.errorCode : message.split(':')[0];
  const lower = message.toLowerCase();
  // did-jwt prefixes its own errors with a code; a bare one comes from the curve arithmetic on a
  // signature that is no secp256k1 signature at all.
  if (!errorCode || !/^[A-Za-z_]+$/.test(errorCode)) {
    return failure('invalid_signature', `The signature is not a valid signature (${message})`);
  }
  if (lower.includes('expired')) return failure('expired', message);
  if (
    lower.includes('not valid before') ||
    lower.includes('not valid yet') ||
    lower.includes('nbf')
  ) {
    return failure('not_yet_valid', message);
  }
  switch (errorCode) {
    case 'invalid_signature':
    case 'no_suitable_keys':
      return failure('invalid_signature', message);
    case 'resolver_error':
    case 'notFound':
    case 'unsupportedDidMethod':
    case 'invalidDid':
    case 'unknownNetwork':
      return failure('resolver_error', message);
    case 'invalid_audience':
    case 'auth_error':
      return failure('wrong_audience', message);
    default:
      return failure('invalid_jwt', message);
  }
}
