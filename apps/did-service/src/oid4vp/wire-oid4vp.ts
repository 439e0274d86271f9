import { setGlobalConfig } from '@openid4vc/utils';
import type { DidConfig } from '../config.js';
import type { Oid4vpRequestDeps } from './request-object.js';

/**
 * OpenID4VP (auth-service's request-object and verify-response): response URIs over http in
 * development and test only (loopback stacks). The library's setting is process-wide, so it is
 * set here to match; production never turns it on.
 */
export function wireOid4vp(
  config: Pick<DidConfig, 'APP_ENV'>,
): Pick<Oid4vpRequestDeps, 'allowInsecureUrls'> {
  const allowInsecureUrls = config.APP_ENV !== 'production';
  if (allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
  return { allowInsecureUrls };
}
