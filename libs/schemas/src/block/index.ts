export {
  BLOCK_TAGS,
  blockHashSchema,
  blockHexNumberSchema,
  blockNumberSchema,
  blockSelectorSchema,
  blockTagSchema,
  type BlockSelectorParam,
  type BlockTag,
} from './block-selector.js';
export { blockRecordSchema, type BlockRecord } from './block-record.js';
export {
  accessListEntrySchema,
  transactionRecordSchema,
  type TransactionRecord,
} from './transaction-record.js';
export {
  receiptLogSchema,
  transactionReceiptSchema,
  type ReceiptLog,
  type TransactionReceipt,
} from './transaction-receipt.js';
export * from './get-block.js';
export * from './get-block-number.js';
export * from './get-transaction.js';
export * from './get-transaction-receipt.js';
export * from './get-transaction-stats.js';
export * from './service-errors.js';
export * from './node-format.js';
