import { setGlobalConfig } from '@openid4vc/utils';
import type { DidConfig } from '../config.js';
import { PROFILE_VCT_PATH } from '../oid4vci/sd-jwt-profile-type.js';
import type { Oid4vpRequestDeps } from './request-object.js';

/**
 * OpenID4VP (auth-service's request-object and verify-response): response URIs over http in
 * development and test only (loopback stacks). The library's setting is process-wide, so it is
 * set here to match; production never turns it on. With `publicUrl` (PUBLIC_URL) the requests
 * also ask for this service's Profile SD-JWT VC (`<publicUrl>/v2/did/oid4vci/vct/profile`).
 */
export function wireOid4vp(
  config: Pick<DidConfig, 'APP_ENV'>,
  publicUrl?: string,
): Pick<Oid4vpRequestDeps, 'allowInsecureUrls' | 'sdJwtProfileVct'> {
  const allowInsecureUrls = config.APP_ENV !== 'production';
  if (allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
  return {
    allowInsecureUrls,
    ...(publicUrl === undefined ? {} : { sdJwtProfileVct: `${publicUrl}${PROFILE_VCT_PATH}` }),
  };
}
