export {
  didAddress,
  didAlias,
  didEthrString,
  didString,
  compactJwt as didCompactJwt,
  isoTimestamp as didIsoTimestamp,
} from './primitives.js';
export * from './create-did.js';
export * from './service-did.js';
export * from './user-info.js';
export * from './verifiable-credential.js';
export * from './verifiable-presentation.js';
export * from './verification-result.js';
export * from './credential-status.js';
export * from './verify-login-vp.js';
export * from './oid4vp.js';
export * from './auth-user-with-vp.js';
export { DID_ERRORS } from './errors.js';
export * from './oid4vci.js';
export * from './issued-credentials.js';
