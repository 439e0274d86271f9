import { defineMethod, type RpcMethod } from '@itp/jsonrpc';
import {
  createAddressParamsSchema,
  createAddressResultSchema,
  createTokenParamsSchema,
  createTokenResultSchema,
  getBalanceParamsSchema,
  getBalanceResultSchema,
  getTempKeyParamsSchema,
  getTempKeyResultSchema,
  getTransactionStatusParamsSchema,
  getTransactionStatusResultSchema,
  importAddressParamsSchema,
  importAddressResultSchema,
  signDataParamsSchema,
  signDataResultSchema,
  transferParamsSchema,
  transferResultSchema,
  TOKEN_SERVICE_ERRORS as E,
  TOKEN_TRANSACTION_ERRORS as TRANSACTION_ERRORS,
} from '@itp/schemas';
import type { TokenService } from '../transactions/token-service.js';
import type { WalletService } from '../wallet/wallet-service.js';
import { withRecordedExamples } from './examples.js';

/** How a retry of a transaction request is answered (docs/api.md §4); in the OpenRPC document. */
export const RETRY =
  'An identical retry (same tempKey, same params, same signature) is not sent again: it gets the ' +
  'answer of the first request (the same TransactionID, or the same service error), waiting for ' +
  'it while it still runs; any other request with a used tempKey is "409".';

/** The methods of `/token` (docs/api.md §4), with their recorded examples (examples.ts). */
export function tokenMethods(wallets: WalletService, tokens: TokenService): RpcMethod[] {
  return withRecordedExamples('token', [
    defineMethod({
      name: 'createAddress',
      summary: 'Creates a wallet address: a new mnemonic, its key and a new secretKey.',
      description:
        "A 12-word BIP-39 mnemonic, the secp256k1 key on m/44'/60'/0'/0/0 and a 256-bit secretKey. " +
        'The key and mnemonic are stored encrypted; mnemonic and secretKey are returned only here. ' +
        'In dev mode the address is stored, then funded with test coin before the answer.',
      paramsStyle: 'object',
      params: createAddressParamsSchema,
      result: createAddressResultSchema,
      errors: [E.rateLimited, E.chain, E.devFunding, E.chainUnavailable, E.databaseUnavailable],
      handler: () => wallets.createAddress(),
    }),
    defineMethod({
      name: 'importAddress',
      summary: 'Restores a wallet address from its mnemonic, with a new secretKey.',
      description:
        "Derives the key on m/44'/60'/0'/0/0. A new secretKey replaces the address's previous one at once. " +
        "The dev chain's public test mnemonic is refused (403) in every mode.",
      paramsStyle: 'object',
      params: importAddressParamsSchema,
      result: importAddressResultSchema,
      errors: [E.rateLimited, E.badMnemonic, E.publicDevAccount, E.chain, E.databaseUnavailable],
      handler: (p) => wallets.importAddress(p.mnemonic),
    }),
    defineMethod({
      name: 'getBalance',
      summary: 'Balance in wei of any address at the latest block.',
      paramsStyle: 'object',
      params: getBalanceParamsSchema,
      result: getBalanceResultSchema,
      errors: [E.chain, E.chainUnavailable],
      handler: (p) => tokens.getBalance(p.address),
    }),
    defineMethod({
      name: 'net_getTempKey',
      summary: 'Issues a tempKey bound to a wallet address and a keyType.',
      description:
        'Single use (consumed by the first transaction that presents it, successful or not), expires ' +
        'after TEMP_KEY_TTL_MS (default 5 minutes). hashKey = hex SHA-256 of "<tempKey>|<secretKey>".',
      paramsStyle: 'object',
      params: getTempKeyParamsSchema,
      result: getTempKeyResultSchema,
      errors: [E.rateLimited, E.unknownAddress, E.chain, E.databaseUnavailable],
      handler: (p) => wallets.issueTempKey(p.address, p.keyType),
    }),
    defineMethod({
      name: 'signData',
      summary: 'Signs a 32-byte hash with the key of a wallet address (EIP-191).',
      description:
        'Checks that tempKey is live and bound to `from` (any keyType) and that hashKey matches, then ' +
        'returns the EIP-191 personal-message signature over the 32 raw bytes of `hash` ' +
        '(keccak256("\\x19Ethereum Signed Message:\\n32" + hash)). Does not consume the tempKey. ' +
        'For a transaction, `hash` is the hex SHA-256 of its signing string.',
      paramsStyle: 'object',
      params: signDataParamsSchema,
      result: signDataResultSchema,
      errors: [
        E.rateLimited,
        E.unknownAddress,
        E.tempKey,
        E.badHashKey,
        E.chain,
        E.databaseUnavailable,
      ],
      handler: (p) => wallets.signData(p),
    }),
    defineMethod({
      name: 'transfer',
      summary: 'Sends native coin from a wallet address.',
      description:
        'keyType "transfer"; signature = signData over SHA-256("from|to|amount|tempKey|hashKey"), ' +
        'each field exactly as sent. resultData and TransactionID are the transaction hash; the ' +
        'answer comes when the node accepted the transaction (getTransactionStatus follows it to its ' +
        `block). ${RETRY}`,
      paramsStyle: 'object',
      params: transferParamsSchema,
      result: transferResultSchema,
      kind: 'transaction',
      errors: TRANSACTION_ERRORS,
      handler: (p, ctx) => tokens.transfer(p, ctx.requestId),
    }),
    defineMethod({
      name: 'createToken',
      summary: 'Deploys an ERC-20 token (OpenZeppelin 5) with the initial supply minted to from.',
      description:
        'keyType "createToken"; signature over SHA-256("from|name|symbol|decimals|initialSupply|tempKey|hashKey") ' +
        '(decimals as sent; a JSON number in its shortest decimal form). resultData is the address ' +
        `of the new contract, TransactionID the deployment transaction. ${RETRY}`,
      paramsStyle: 'object',
      params: createTokenParamsSchema,
      result: createTokenResultSchema,
      kind: 'transaction',
      errors: TRANSACTION_ERRORS,
      handler: (p, ctx) => tokens.createToken(p, ctx.requestId),
    }),
    defineMethod({
      name: 'getTransactionStatus',
      summary: 'The status of a transaction this service sent, by its TransactionID.',
      description:
        'status: sending | sent | unknown (not final: the service settles them against the chain ' +
        'after start and every TX_RECONCILE_INTERVAL_MS) | mined | failed | dropped (final). failed ' +
        'with a blockNumber: mined and reverted (receipt status 0); without: the node refused it ' +
        'and nothing was sent. dropped: never mined, its nonce went to another transaction.',
      paramsStyle: 'object',
      params: getTransactionStatusParamsSchema,
      result: getTransactionStatusResultSchema,
      errors: [E.unknownTransaction, E.chain, E.databaseUnavailable],
      handler: (p) => tokens.getTransactionStatus(p.transactionId),
    }),
  ] as RpcMethod[]);
}
