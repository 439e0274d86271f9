export { verifySdJwtVcPresentation } from './verify-sd-jwt-vc-presentation.js';
export type { SdJwtVcRefusalRule, VerifiedSdJwtVc, VerifySdJwtVcOptions } from './types.js';
