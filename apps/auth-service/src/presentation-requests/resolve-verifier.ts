import { isIP } from 'node:net';
import { join } from 'node:path';
import type { JWK } from 'jose';
import type { Logger } from '@itp/service-kit';
import { loadOrCreateDevPki } from '@itp/x509';
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
 * otherwise, in development, the dev PKI under DATA_DIR/secrets — when PUBLIC_URL's host is a DNS
 * name (an x509_san_dns client identifier cannot be an IP address: without PUBLIC_URL the
 * feature is off, with a warning); otherwise none (feature off).
 */
export async function resolveVerifier(
  config: AuthConfig,
  host: string,
  logger: Logger,
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
  if (config.APP_ENV !== 'development') return undefined;
  if (isIP(host) !== 0) {
    logger.warn(
      `presentation requests are off: the verifier's x509_san_dns client identifier needs a host name, not ${host} (set PUBLIC_URL, e.g. http://localhost:<PORT>)`,
    );
    return undefined;
  }
  const pki = await loadOrCreateDevPki(join(config.DATA_DIR, 'secrets'), { verifierHost: host });
  return {
    verifier: await verifierIdentity(pki.verifier.privateKeyJwk as JWK, pki.verifier.x5c, host),
    devCaPem: pki.caPem,
  };
}
