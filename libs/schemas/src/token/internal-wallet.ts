import { z } from 'zod';
import { addressParam, addressResult } from './primitives.js';

/**
 * token-rpc's internal API for did-service (`/internal/v1/wallet/*`, bearer
 * INTERNAL_TOKEN_DID_TO_TOKEN_RPC; never routed by the gateway).
 */

/**
 * POST /internal/v1/wallet/register-did: the owner proves the secretKey of an address for a DID
 * (did-service's create-did); from then on the address may sign JWS for its DID (sign-jws).
 * Without this mark token-rpc signs nothing for the address.
 */
export const walletRegisterDidRequestSchema = z
  .object({
    address: addressParam,
    secretKey: z.string().min(1).max(256),
  })
  .meta({ title: 'WalletRegisterDidRequest' });
export type WalletRegisterDidRequest = z.infer<typeof walletRegisterDidRequestSchema>;

export const walletRegisterDidResponseSchema = z
  .object({
    address: addressResult,
    publicKeyHex: z
      .string()
      .regex(/^0x04[0-9a-f]{128}$/)
      .meta({ description: 'uncompressed secp256k1 public key (0x04 + X + Y)' }),
  })
  .meta({ title: 'WalletRegisterDidResponse' });
export type WalletRegisterDidResponse = z.infer<typeof walletRegisterDidResponseSchema>;

/** Longest JWS signing input token-rpc accepts (a VP with several VCs stays far below it). */
export const JWS_SIGNING_INPUT_MAX_LENGTH = 256 * 1024;

/**
 * POST /internal/v1/wallet/sign-jws: token-rpc signs `signingInput` (`base64url(header) "."
 * base64url(payload)` of a compact JWS) only when the header's `alg` is ES256K or ES256K-R and the
 * payload is a JSON object whose `iss` is `did:ethr:[<network>:]<address>`, for an address registered for a
 * DID (register-did). It hashes the input itself (SHA-256): it can never sign a transaction or
 * arbitrary data.
 */
export const walletSignJwsRequestSchema = z
  .object({
    address: addressParam,
    signingInput: z
      .string()
      .min(3)
      .max(JWS_SIGNING_INPUT_MAX_LENGTH)
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be base64url(header).base64url(payload)')
      .meta({ description: 'the JWS signing input: base64url(header) "." base64url(payload)' }),
  })
  .meta({ title: 'WalletSignJwsRequest' });
export type WalletSignJwsRequest = z.infer<typeof walletSignJwsRequestSchema>;

export const walletSignJwsResponseSchema = z
  .object({
    /** base64url of r ‖ s (ES256K) or r ‖ s ‖ recovery id (ES256K-R), as the header's alg says. */
    signature: z.string().regex(/^[A-Za-z0-9_-]{86,88}$/),
    r: z.string().regex(/^0x[0-9a-f]{64}$/),
    s: z.string().regex(/^0x[0-9a-f]{64}$/),
    recoveryParam: z.union([z.literal(0), z.literal(1)]),
  })
  .meta({ title: 'WalletSignJwsResponse' });
export type WalletSignJwsResponse = z.infer<typeof walletSignJwsResponseSchema>;
