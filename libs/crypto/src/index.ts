export { sha256Hex, randomHex, constantTimeEqual } from './hash.js';
export { Keyring, DecryptionError, type MasterKey } from './aead.js';
export { parseMasterKey, loadOrCreateDevMasterKey } from './master-key.js';
export { loadOrCreateDevSecret } from './dev-secret.js';
export {
  RSA_SIGNING_MODULUS_BITS,
  newEcSigningJwk,
  newRsaSigningJwk,
  type PrivateSigningJwk,
} from './signing-jwk.js';
export {
  MIN_KEY_BYTES,
  MIN_SECRET_BITS,
  PUBLISHED_SECRET_VALUES,
  estimateSecretBits,
  keyMaterialBytes,
  secretWeakness,
  weakSecretIssues,
  weakSecretListIssues,
} from './secret-strength.js';
export {
  INTERNAL_TOKENS,
  internalTokenEnv,
  internalTokensHeldBy,
  newInternalTokens,
  resolveDeploymentSecret,
  resolveInternalToken,
  type InternalTokenName,
  type InternalTokens,
  type SecretSource,
} from './deployment-secrets.js';
