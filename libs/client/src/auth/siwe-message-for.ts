import type { SiweNonceResponse } from '../types.js';

/** How long a message the SDK builds stays valid (its Expiration Time): 5 minutes, as the nonce. */
export const DEFAULT_SIWE_MESSAGE_TTL_MS = 5 * 60_000;

/** What goes into a message besides the nonce answer and the address. */
export interface SiweMessageFields {
  /** The human-readable line the wallet shows (no line break). */
  statement: string;
  /** Milliseconds from `now` to the message's Expiration Time (default 5 minutes). */
  expiresInMs?: number;
  /** When it is issued (default: now). */
  now?: Date;
}

/**
 * The EIP-4361 message for this service (viem's `createSiweMessage`): domain, URI, chain id and
 * nonce as `/v2/auth/siwe/nonce` answered them, the signer's address, version 1, issued now and
 * expiring `expiresInMs` later. viem is loaded on first use only (it is not needed otherwise).
 * Throws viem's errors for a field that is not valid (e.g. an address that is not one).
 */
export async function siweMessageFor(
  answer: SiweNonceResponse,
  address: string,
  fields: SiweMessageFields,
): Promise<string> {
  const { createSiweMessage } = await import('viem/siwe');
  const issuedAt = fields.now ?? new Date();
  return createSiweMessage({
    domain: answer.domain,
    uri: answer.uri,
    chainId: answer.chainId,
    nonce: answer.nonce,
    address: address as `0x${string}`,
    version: '1',
    statement: fields.statement,
    issuedAt,
    expirationTime: new Date(
      issuedAt.getTime() + (fields.expiresInMs ?? DEFAULT_SIWE_MESSAGE_TTL_MS),
    ),
  });
}
