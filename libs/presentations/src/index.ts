export { PresentationRefusedError } from './errors.js';
export {
  DecodedStatusLists,
  DEFAULT_STATUS_LISTS,
  verifySdJwtVcPresentation,
  type SdJwtVcRefusalRule,
  type VerifiedSdJwtVc,
  type VerifySdJwtVcOptions,
} from './sd-jwt-vc/index.js';
export * from './mdoc/index.js';
