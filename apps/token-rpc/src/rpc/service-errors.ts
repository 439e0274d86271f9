import { ChainUnavailableError } from '@itp/chain';
import type { RpcMethod, RpcServiceErrorDoc } from '@itp/jsonrpc';
import { ChainNodeUnavailableError } from '../errors/token-errors.js';

/**
 * The service error codes (`result.resultCode`) of the token API, per contract §4. Protocol
 * errors (malformed params: -32602, and so on) are separate: see contract §6.
 */
export const SERVICE_ERRORS = {
  badMnemonic: { resultCode: '400', when: 'the mnemonic is not a valid BIP-39 phrase' },
  reverted: {
    resultCode: '400',
    when: 'the chain would revert the transaction (the decoded reason is in resultMessage)',
  },
  notErc20: { resultCode: '400', when: 'the contract does not answer like an ERC-20 token' },
  badHashKey: { resultCode: '401', when: 'hashKey is not SHA-256("<tempKey>|<secretKey>")' },
  badSignature: {
    resultCode: '401',
    when: 'the signature does not recover `from` over SHA-256 of the signing string',
  },
  insufficientFunds: {
    resultCode: '402',
    when: 'the sender cannot pay amount + gas, or the token balance / allowance is below the amount',
  },
  unknownAddress: {
    resultCode: '404',
    when: '`from` / `address` is not a wallet address of this service',
  },
  unknownContract: { resultCode: '404', when: 'no contract is deployed at `contract`' },
  tempKey: {
    resultCode: '409',
    when: 'tempKey unknown, expired or already used, or issued for another address or keyType',
  },
  chain: {
    resultCode: '500',
    when: 'the chain refused the transaction for another reason (e.g. a nonce conflict), or an internal failure',
  },
  chainUnavailable: {
    resultCode: '503',
    when:
      'the chain node cannot be reached or did not answer in time (resultMessage "Chain node unavailable: …"); ' +
      'when this happens while sending, the message names the transaction, which may or may not have been accepted',
  },
} satisfies Record<string, RpcServiceErrorDoc>;

const E = SERVICE_ERRORS;

/** The errors of every transaction-creating method, in the order they are checked. */
export const TRANSACTION_ERRORS: RpcServiceErrorDoc[] = [
  E.tempKey,
  E.unknownAddress,
  E.badHashKey,
  E.badSignature,
  E.insufficientFunds,
  E.reverted,
  E.chain,
  E.chainUnavailable,
];

/** Turns @itp/chain's ChainUnavailableError (code "500") into the token API's own "503". */
export function toServiceError(err: unknown): unknown {
  return err instanceof ChainUnavailableError
    ? new ChainNodeUnavailableError(err.message, { cause: err })
    : err;
}

/**
 * Wraps each method's handler so that "chain unavailable" is reported as its own service error
 * (resultCode "503") wherever it arises: a read, the dev funding, the nonce manager, a send.
 */
export function reportChainUnavailable(methods: RpcMethod[]): RpcMethod[] {
  return methods.map((method) => ({
    ...method,
    handler: async (params, ctx) => {
      try {
        return await method.handler(params, ctx);
      } catch (err) {
        throw toServiceError(err);
      }
    },
  }));
}
