import type { TypeMetadataFormat } from '@sd-jwt/sd-jwt-vc';

/** The SD-JWT VC configuration of the OpenID4VCI issuer (contract §15). */
export const ITP_PROFILE_SD_JWT_CONFIGURATION_ID = 'itp_profile_sd_jwt';

/** Where the Profile type metadata is served: its URL is the credentials' `vct`. */
export const PROFILE_VCT_PATH = '/v2/did/oid4vci/vct/profile';

/** The profile claims the type metadata describes (any other userInfo claim is disclosable too). */
const PROFILE_CLAIMS: { claim: string; label: string }[] = [
  { claim: 'name', label: 'Name' },
  { claim: 'given_name', label: 'Given name' },
  { claim: 'family_name', label: 'Family name' },
  { claim: 'email', label: 'Email' },
  { claim: 'phone_number', label: 'Phone number' },
];

/**
 * The SD-JWT VC type metadata of the Profile credential (draft-ietf-oauth-sd-jwt-vc §6): its `vct`,
 * a display name and description, and its claims: `sub` (the user, always visible) and the
 * profile claims (each selectively disclosable).
 */
export function profileTypeMetadata(vct: string): TypeMetadataFormat {
  return {
    vct,
    name: 'ITP Profile',
    description: 'A user of the ITP identity platform and the profile claims they chose to share',
    display: [
      {
        locale: 'en',
        name: 'Profile',
        description: 'Your ITP identity platform profile',
      },
    ],
    claims: [
      {
        path: ['sub'],
        display: [{ locale: 'en', label: 'User id' }],
        sd: 'never',
      },
      ...PROFILE_CLAIMS.map(({ claim, label }) => ({
        path: [claim],
        display: [{ locale: 'en', label }],
        sd: 'always' as const,
      })),
    ],
  };
}
