export { verifySdJwtVcPresentation } from './verify-sd-jwt-vc-presentation.js';
export type { SdJwtVcRefusalRule, VerifiedSdJwtVc, VerifySdJwtVcOptions } from './types.js';
export { DecodedStatusLists, DEFAULT_STATUS_LISTS } from './decoded-status-lists.js';
