export { sha256Hex, randomHex, constantTimeEqual } from './hash.js';
export { Keyring, DecryptionError, type MasterKey } from './aead.js';
export { parseMasterKey, loadOrCreateDevMasterKey } from './master-key.js';
export { loadOrCreateDevSecret } from './dev-secret.js';
