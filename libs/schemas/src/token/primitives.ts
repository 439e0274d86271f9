import { isAddress } from 'ethers/address';
import { z } from 'zod';

/**
 * Building blocks of the token API schemas (used by the message schemas beside this file). They
 * validate only: values stay exactly as sent, because the signing strings of docs/api.md §4 are built
 * from the fields as sent.
 */

export const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * The JSON Schema `pattern` of address params: any letter case, because the service answers
 * checksummed (EIP-55) mixed-case addresses and its own examples use them. JSON Schema cannot
 * check a checksum: the rule is in the description, and the service refuses a wrong one.
 */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

/** A 20-byte address; all lower case, all upper case, or a valid EIP-55 mixed-case checksum. */
export const addressParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .refine(
    (value) => !/^0x[0-9a-fA-F]{40}$/.test(value) || isAddress(value),
    'has a wrong EIP-55 checksum (mixed-case address)',
  )
  .meta({
    description:
      '0x-prefixed 20-byte address: all lower case, all upper case, or mixed case with a valid ' +
      'EIP-55 checksum (a mixed-case address with a wrong checksum is refused with -32602)',
    pattern: ADDRESS_PATTERN,
  });

/** A checksummed address as the service answers it. */
export const addressResult = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .meta({ description: 'EIP-55 checksummed 0x-prefixed address' });

/** An amount in the smallest unit (wei / token base units), 0 … 2^256 − 1, as a decimal string. */
export const amountParam = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a non-negative decimal integer string')
  .refine(
    (value) => !/^[0-9]+$/.test(value) || BigInt(value) <= MAX_UINT256,
    'must not exceed 2^256 - 1',
  )
  .meta({
    description:
      'amount in the smallest unit (wei / token base units) as a decimal string, 0 … 2^256 − 1',
    // A pattern cannot say ≤ 2^256 − 1: it documents up to 77 digits (all below the limit); the
    // service also accepts 78-digit values up to 2^256 − 1.
    pattern: '^(0|[1-9][0-9]{0,76})$',
  });

/** An amount the service answers: decimal string. */
export const amountResult = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .meta({ description: 'amount in the smallest unit as a decimal string' });

export const KEY_TYPES = ['transfer', 'createToken', 'erc20'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const keyTypeParam = z
  .enum(KEY_TYPES, {
    error: `must be one of ${KEY_TYPES.join(', ')}`,
  })
  .meta({
    description:
      'what the tempKey may authorise: transfer, createToken, or erc20 (the state-changing /token/erc20 methods)',
  });

/** A tempKey as net_getTempKey issues it: 256 random bits as 64 lower-case hex digits. */
export const tempKeyParam = z
  .string()
  .regex(
    /^[0-9a-f]{64}$/,
    'must be a tempKey as net_getTempKey issued it (64 lower-case hex digits)',
  )
  .meta({ description: 'tempKey from net_getTempKey (64 lower-case hex digits)' });

/** hex SHA-256 of `<tempKey>|<secretKey>` (64 hex digits, either case, optional 0x). */
export const hashKeyParam = z
  .string()
  .regex(
    /^(0x)?[0-9a-fA-F]{64}$/,
    'must be the hex SHA-256 of "<tempKey>|<secretKey>" (64 hex digits)',
  )
  .meta({ description: 'hex SHA-256 of "<tempKey>|<secretKey>"' });

/** The 65-byte signature signData returned: 0x + r (32) + s (32) + v (1) in hex. */
export const signatureParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be the signature signData returned (0x + 130 hex digits)')
  .meta({ description: 'signature from signData: 0x + 130 hex digits (r, s, v)' });

export const signatureResult = z
  .string()
  .regex(/^0x[0-9a-f]{130}$/)
  .meta({ description: 'EIP-191 signature over the 32-byte hash: 0x + 130 hex digits (r, s, v)' });

/** A 32-byte hash in hex, 64 digits, with or without 0x. */
export const hash32Param = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'must be a 32-byte hash: 64 hex digits, with or without 0x')
  .meta({ description: '32-byte hash as 64 hex digits, with or without 0x' });

/** A TransactionID (transaction hash) as a client sends it back: 0x + 64 hex digits, either case. */
export const transactionIdParam = z
  .string()
  .regex(
    /^0x[0-9a-fA-F]{64}$/,
    'must be a TransactionID: 0x + 64 hex digits (the transaction hash)',
  )
  .meta({
    description: 'TransactionID of a transaction: 0x + 64 hex digits (the transaction hash)',
  });

export const transactionHashResult = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/)
  .meta({ description: 'hash of the transaction (0x + 64 hex digits)' });
