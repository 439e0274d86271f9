export {
  KEY_TYPES as TEMP_KEY_TYPES,
  MAX_UINT256,
  type KeyType as TempKeyType,
} from './primitives.js';
export * from './create-address.js';
export * from './import-address.js';
export * from './get-balance.js';
export * from './get-temp-key.js';
export * from './sign-data.js';
export * from './transfer.js';
export * from './create-token.js';
export * from './get-transaction-status.js';
export * from './erc20-read.js';
export * from './erc20-write.js';
export * from './internal-wallet.js';
export * from './service-errors.js';
