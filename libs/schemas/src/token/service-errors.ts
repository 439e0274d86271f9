import { CHAIN_UNAVAILABLE, type ServiceErrorDoc } from '../errors/service-errors.js';

/**
 * The token API's error catalog (`result.resultCode`, docs/api.md §4), for `/token` and
 * `/token/erc20`. Protocol errors (malformed params: -32602, and so on) are separate: docs/api.md §6.
 */
export const TOKEN_SERVICE_ERRORS = {
  badMnemonic: { resultCode: '400', when: 'the mnemonic is not a valid BIP-39 phrase' },
  reverted: {
    resultCode: '400',
    when: 'the chain would revert the transaction (the decoded reason is in resultMessage)',
  },
  notErc20: { resultCode: '400', when: 'the contract does not answer like an ERC-20 token' },
  badHashKey: {
    resultCode: '401',
    when: 'hashKey is not the hex SHA-256 of `<tempKey>|<secretKey>`',
  },
  badSignature: {
    resultCode: '401',
    when: 'the signature does not recover `from` over SHA-256 of the signing string',
  },
  insufficientFunds: {
    resultCode: '402',
    when: 'the sender cannot pay amount + gas, or the token balance / allowance is below the amount',
  },
  publicDevAccount: {
    resultCode: '403',
    when:
      'the mnemonic is the dev chain\'s public test mnemonic (anvil/hardhat "test test … junk"): ' +
      'its keys are known to everyone, so it is refused in every mode',
  },
  unknownAddress: {
    resultCode: '404',
    when: '`from` / `address` is not a wallet address of this service',
  },
  unknownContract: { resultCode: '404', when: 'no contract is deployed at `contract`' },
  unknownTransaction: {
    resultCode: '404',
    when: '`transactionId` is not a transaction this service sent',
  },
  tempKey: {
    resultCode: '409',
    when:
      'tempKey unknown, expired or already used by a different request (an identical retry gets ' +
      'the original result instead), or issued for another address or keyType',
  },
  tempKeyInProgress: {
    resultCode: '409',
    when:
      'an identical retry while the first request with that tempKey is still being processed: ' +
      'retry it shortly to get its result',
  },
  rateLimited: {
    resultCode: '429',
    when:
      'too many calls of this kind from this client address in the current minute (every call of a ' +
      'batch counts); resultMessage says in how many seconds to retry',
  },
  chain: {
    resultCode: '500',
    when: 'the chain refused the transaction for another reason (e.g. a nonce conflict), or an internal failure',
  },
  devFunding: {
    resultCode: '503',
    when:
      'dev mode only (createAddress): the funding of the new address failed — the dev funding ' +
      'account is empty and the node did not top it up, the chain refused or did not mine the ' +
      'funding, or the chain node is down (resultMessage "dev funding failed: …" says which); no ' +
      'address was created, retry',
  },
  chainUnavailable: {
    resultCode: CHAIN_UNAVAILABLE.resultCode,
    when:
      `${CHAIN_UNAVAILABLE.when}; when this happens while sending, the message names the ` +
      'transaction, which may or may not have been accepted',
  },
  databaseUnavailable: {
    resultCode: '503',
    when:
      'the database cannot be reached or lost the connection (resultMessage "Database unavailable: …"), ' +
      'or Redis cannot be reached (resultMessage "Redis unavailable: …"): ' +
      'nothing was stored or sent (a tempKey presented is used all the same); retry later',
  },
} satisfies Record<string, ServiceErrorDoc>;

const E = TOKEN_SERVICE_ERRORS;

/** The errors of every transaction-creating method, in the order they are checked. */
export const TOKEN_TRANSACTION_ERRORS: ServiceErrorDoc[] = [
  E.tempKey,
  E.tempKeyInProgress,
  E.unknownAddress,
  E.badHashKey,
  E.badSignature,
  E.insufficientFunds,
  E.reverted,
  E.chain,
  E.chainUnavailable,
  E.databaseUnavailable,
];
