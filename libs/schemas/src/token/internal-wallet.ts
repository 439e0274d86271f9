import { z } from 'zod';
import { addressParam, addressResult } from './primitives.js';

/**
 * token-rpc's internal API for did-service (`/internal/v1/wallet/*`, bearer INTERNAL_API_TOKEN;
 * never routed by the gateway).
 */

/** POST /internal/v1/wallet/verify-secret */
export const walletVerifySecretRequestSchema = z
  .object({
    address: addressParam,
    secretKey: z.string().min(1).max(256),
  })
  .meta({ title: 'WalletVerifySecretRequest' });
export type WalletVerifySecretRequest = z.infer<typeof walletVerifySecretRequestSchema>;

export const walletVerifySecretResponseSchema = z
  .object({
    address: addressResult,
    publicKeyHex: z
      .string()
      .regex(/^0x04[0-9a-f]{128}$/)
      .meta({ description: 'uncompressed secp256k1 public key (0x04 + X + Y)' }),
  })
  .meta({ title: 'WalletVerifySecretResponse' });
export type WalletVerifySecretResponse = z.infer<typeof walletVerifySecretResponseSchema>;

/** POST /internal/v1/wallet/sign-digest */
export const walletSignDigestRequestSchema = z
  .object({
    address: addressParam,
    digest: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x + 64 hex digits')
      .meta({ description: '32-byte digest to sign as is (no prefix is added)' }),
  })
  .meta({ title: 'WalletSignDigestRequest' });
export type WalletSignDigestRequest = z.infer<typeof walletSignDigestRequestSchema>;

export const walletSignDigestResponseSchema = z
  .object({
    signature: z
      .string()
      .regex(/^0x[0-9a-f]{130}$/)
      .meta({ description: 'r ‖ s ‖ v (v = 27 or 28), 0x + 130 hex digits' }),
    r: z.string().regex(/^0x[0-9a-f]{64}$/),
    s: z.string().regex(/^0x[0-9a-f]{64}$/),
    recoveryParam: z.union([z.literal(0), z.literal(1)]),
  })
  .meta({ title: 'WalletSignDigestResponse' });
export type WalletSignDigestResponse = z.infer<typeof walletSignDigestResponseSchema>;
