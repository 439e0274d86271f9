import type { AuthConfig } from '../config.js';
import {
  parseVerifierSigningKey,
  pemChainToX5c,
  verifierIdentity,
  type VerifierIdentity,
} from './verifier-identity.js';

export interface ResolvedVerifier {
  verifier: VerifierIdentity;
  /** The dev PKI's CA (development without configured keys): served and trusted. */
  devCaPem?: string;
}

/**
 * The verifier's key and chain: VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN when set;
 * otherwise, in development, the dev PKI under DATA_DIR/secrets; otherwise none (feature off).
 */
export async function resolveVerifier(
  config: AuthConfig,
  host: string,
): Promise<ResolvedVerifier | undefined> {
  if (config.VERIFIER_SIGNING_KEY && config.VERIFIER_CERTIFICATE_CHAIN) {
    return {
      verifier: await verifierIdentity(
        parseVerifierSigningKey(config.VERIFIER_SIGNING_KEY),
        pemChainToX5c(config.VERIFIER_CERTIFICATE_CHAIN),
        host,
      ),
    };
  }
  return undefined;
}
