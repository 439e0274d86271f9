/**
 * Examples of the block API's OpenRPC document (params → resultData), shaped as anvil 1.7 answers
 * through this service (a block with one ETH transfer). The live OpenRPC test
 * (tools/api-docs/openrpc-live.spec.ts) sends each one and checks the answer against the documented
 * result schema; getBlockNumber and getTransactionStats are exact on a fresh chain and index.
 */
const HASH = (byte: string) => `0x${byte.repeat(32)}`;
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const BLOOM = `0x${'00'.repeat(256)}`;
const TX_HASH = '0x3c1e5d3f2b8b7b3f5e0e3a7c2f4a9b8e1d6c5b4a39281706f5e4d3c2b1a09f8e';
const BLOCK_HASH = '0x9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';

export const EXAMPLE_TRANSACTION = {
  hash: TX_HASH,
  blockHash: BLOCK_HASH,
  blockNumber: 1,
  transactionIndex: 0,
  from: ALICE,
  to: BOB,
  value: '1000000000000000000',
  gas: 21000,
  gasPrice: '2000000000',
  maxFeePerGas: '2000000000',
  maxPriorityFeePerGas: '1000000000',
  nonce: 0,
  input: '0x',
  type: 2,
  chainId: 31337,
  v: '0x0',
  r: HASH('7c'),
  s: HASH('53'),
  yParity: 0,
  accessList: [],
  nonceRaw: '0x0',
  blockNumberRaw: '0x1',
  transactionIndexRaw: '0x0',
  valueRaw: '0xde0b6b3a7640000',
  gasPriceRaw: '0x77359400',
  gasRaw: '0x5208',
  maxFeePerGasRaw: '0x77359400',
  maxPriorityFeePerGasRaw: '0x3b9aca00',
  typeRaw: '0x2',
  chainIdRaw: '0x7a69',
  yParityRaw: '0x0',
};

export const EXAMPLE_BLOCK = {
  hash: BLOCK_HASH,
  parentHash: HASH('22'),
  stateRoot: HASH('44'),
  transactionsRoot: HASH('55'),
  receiptsRoot: HASH('66'),
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  mixHash: HASH('00'),
  extraData: '0x',
  logsBloom: BLOOM,
  miner: '0x0000000000000000000000000000000000000000',
  number: 1,
  gasLimit: 30000000,
  gasUsed: 21000,
  timestamp: 1767225600,
  difficulty: 0,
  totalDifficulty: 0,
  nonce: 0,
  size: 731,
  numberRaw: '0x1',
  gasLimitRaw: '0x1c9c380',
  gasUsedRaw: '0x5208',
  timestampRaw: '0x69559a00',
  difficultyRaw: '0x0',
  totalDifficultyRaw: '0x0',
  nonceRaw: '0x0000000000000000',
  sizeRaw: '0x2db',
  baseFeePerGas: 1000000000,
  baseFeePerGasRaw: '0x3b9aca00',
  blobGasUsed: 0,
  blobGasUsedRaw: '0x0',
  excessBlobGas: 0,
  excessBlobGasRaw: '0x0',
  withdrawals: [],
  withdrawalsRoot: HASH('56'),
  parentBeaconBlockRoot: HASH('00'),
  requestsHash: '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  sealFields: null,
  author: null,
  uncles: [],
  transactions: [TX_HASH],
};

export const EXAMPLE_RECEIPT = {
  transactionHash: TX_HASH,
  transactionIndex: 0,
  blockHash: BLOCK_HASH,
  blockNumber: 1,
  from: ALICE,
  to: BOB,
  contractAddress: null,
  status: 'success',
  gasUsed: 21000,
  cumulativeGasUsed: 21000,
  effectiveGasPrice: '2000000000',
  type: 2,
  logsBloom: BLOOM,
  logs: [],
  transactionIndexRaw: '0x0',
  blockNumberRaw: '0x1',
  cumulativeGasUsedRaw: '0x5208',
  gasUsedRaw: '0x5208',
  effectiveGasPriceRaw: '0x77359400',
  statusRaw: '0x1',
  typeRaw: '0x2',
};

export { TX_HASH as EXAMPLE_TX_HASH };
