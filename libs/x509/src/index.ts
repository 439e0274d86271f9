import './setup.js';

export { CertificateBundleError } from './certificate-bundle-error.js';
export {
  UntrustedCertificateError,
  type CertificateChainRule,
} from './untrusted-certificate-error.js';
export { parsePemBundle } from './parse-pem-bundle.js';
export { trustAnchorsFrom, type TrustAnchors } from './trust-anchors.js';
export { loadTrustAnchorsFile } from './load-trust-anchors-file.js';
export {
  MAX_CHAIN_LENGTH,
  verifyCertificateChain,
  type VerifiedChain,
} from './verify-certificate-chain.js';
export { ChainVerificationCache, DEFAULT_CHAIN_CACHE_ENTRIES } from './chain-verification-cache.js';
export { createCa, type CreateCaOptions, type CreatedCa } from './create-ca.js';
export { issueLeaf, type IssueLeafOptions, type IssuedLeaf } from './issue-leaf.js';
export { type CertificateWithKey } from './generate-certificate.js';
export type { CryptoKey, CryptoKeyPair, JsonWebKey } from './web-crypto-types.js';
export { X509Certificate } from '@peculiar/x509';
export {
  loadOrCreateDevPki,
  type DevLeaf,
  type DevPki,
  type DevPkiOptions,
} from './load-or-create-dev-pki.js';
export { DevPkiError } from './dev-pki-error.js';
