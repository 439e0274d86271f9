export { verifyMdocPresentation } from './verify-mdoc-presentation.js';
export type { MdocRefusalRule, VerifiedMdoc, VerifyMdocOptions } from './mdoc-types.js';
export { mdocContext } from './mdoc-context.js';
export { UnsupportedMdocOperationError } from './unsupported-mdoc-operation-error.js';
