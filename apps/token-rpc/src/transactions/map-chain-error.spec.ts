import { describe, expect, it } from '@jest/globals';
import { ChainRpcError, ChainUnavailableError } from '@itp/chain';
import { BadRequestError } from '@itp/errors';
import { itpTokenInterface } from '../erc20/itp-token.js';
import {
  ChainFailureError,
  ChainNodeUnavailableError,
  InsufficientFundsError,
  TransactionRevertedError,
} from '../errors.js';
import { mapChainError, revertDataOf } from './map-chain-error.js';

const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function revert(name: string, args: unknown[]): ChainRpcError {
  const data = itpTokenInterface.encodeErrorResult(name, args);
  return new ChainRpcError('eth_estimateGas', 3, 'execution reverted', data);
}

describe('mapChainError', () => {
  it('decodes an ERC-20 balance or allowance revert as insufficient funds (402)', () => {
    const balance = mapChainError(
      revert('ERC20InsufficientBalance', [holder, 5n, 7n]),
      itpTokenInterface,
    );
    expect(balance).toBeInstanceOf(InsufficientFundsError);
    expect(balance.code).toBe('402');
    expect(balance.message).toBe(`token balance of ${holder} is 5, below the amount 7`);
    const allowance = mapChainError(
      revert('ERC20InsufficientAllowance', [holder, 0n, 1n]),
      itpTokenInterface,
    );
    expect(allowance.code).toBe('402');
    expect(allowance.message).toContain('allowance');
  });

  it('decodes other reverts as 400 with the reason', () => {
    const receiver = mapChainError(revert('ERC20InvalidReceiver', [holder]), itpTokenInterface);
    expect(receiver).toBeInstanceOf(TransactionRevertedError);
    expect(receiver.code).toBe('400');
    const data = `0x08c379a0${'0'.repeat(62)}20${'0'.repeat(62)}04${Buffer.from('nope').toString('hex').padEnd(64, '0')}`;
    const message = mapChainError(
      new ChainRpcError('eth_estimateGas', 3, 'execution reverted: nope', data),
      itpTokenInterface,
    );
    expect(message.message).toBe('the transaction would revert: nope');
    const undecoded = mapChainError(
      new ChainRpcError('eth_estimateGas', 3, 'execution reverted', '0xdeadbeef'),
      itpTokenInterface,
    );
    expect(undecoded).toBeInstanceOf(BadRequestError);
  });

  it('maps the node’s insufficient funds message to 402', () => {
    const err = new ChainRpcError(
      'eth_sendRawTransaction',
      -32003,
      'insufficient funds for gas * price + value',
    );
    const mapped = mapChainError(err, itpTokenInterface);
    expect(mapped).toBeInstanceOf(InsufficientFundsError);
    expect(mapped.message).toContain('cannot pay amount + gas');
  });

  it('maps a nonce conflict and other node errors to 500', () => {
    const nonce = mapChainError(
      new ChainRpcError('eth_sendRawTransaction', -32003, 'nonce too low'),
      itpTokenInterface,
    );
    expect(nonce).toBeInstanceOf(ChainFailureError);
    expect(nonce.code).toBe('500');
    expect(nonce.message).toContain('nonce conflict');
    const other = mapChainError(
      new ChainRpcError('eth_sendRawTransaction', -32000, 'gas limit reached'),
      itpTokenInterface,
    );
    expect(other.code).toBe('500');
  });

  it('reports an unreachable node as its own result (503, says so), apart from other failures', () => {
    const down = new ChainUnavailableError('connection failed (ECONNREFUSED)');
    const mapped = mapChainError(down, itpTokenInterface);
    expect(mapped).toBeInstanceOf(ChainNodeUnavailableError);
    expect(mapped.code).toBe('503');
    expect(mapped.message).toBe('Chain node unavailable: connection failed (ECONNREFUSED)');
    expect(mapChainError(new Error('boom'), itpTokenInterface).code).toBe('500');
  });

  it('finds revert data at error.data or error.data.data', () => {
    expect(revertDataOf('0x12345678')).toBe('0x12345678');
    expect(revertDataOf({ data: '0x12345678aa' })).toBe('0x12345678aa');
    expect(revertDataOf('0x')).toBeNull();
    expect(revertDataOf(undefined)).toBeNull();
  });
});
