import { z } from 'zod';

/**
 * Sign-In with Ethereum (EIP-4361, docs/api.md §11): the bodies of `/v2/auth/siwe/nonce`,
 * `auth-user-with-siwe`, `link-address` and `unlink-address`. Unknown members are ignored.
 */
export const SIWE_LIMITS = {
  /** Longest EIP-4361 message read (a message with many resources stays far below it). */
  messageLength: 8192,
  /**
   * Longest signature read, in hex characters with `0x`: an EOA signature is 132, an ERC-1271
   * one is whatever the account wants, an ERC-6492 one wraps the account's deployment call.
   */
  signatureLength: 32768,
} as const;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;

/** POST /v2/auth/siwe/nonce: an empty object (or no body); unknown members are ignored. */
export const siweNonceRequestSchema = z.object({}).meta({ title: 'SiweNonceRequest' });

/** POST /v2/auth/siwe/nonce: what a message for this service must carry. */
export const siweNonceResponseSchema = z
  .object({
    nonce: z.string().meta({
      description:
        'one-time nonce for the message (alphanumeric, 32 characters); valid for 5 minutes',
    }),
    domain: z.string().meta({
      description: "the message's domain: PUBLIC_URL's authority (host[:port])",
    }),
    uri: z.string().meta({
      description: "the message's URI: PUBLIC_URL, or a URL below it",
    }),
    chainId: z.number().int().positive().meta({ description: 'the configured chain (EIP-155)' }),
  })
  .meta({ title: 'SiweNonceResponse' });
export type SiweNonceResponse = z.infer<typeof siweNonceResponseSchema>;

/** POST /v2/auth/auth-user-with-siwe and /v2/auth/link-address: a signed EIP-4361 message. */
export const siweSignedMessageSchema = z
  .object({
    message: z
      .string()
      .min(1)
      .max(SIWE_LIMITS.messageLength)
      .meta({ description: 'the EIP-4361 message, exactly as signed (lines end with \\n)' }),
    signature: z
      .string()
      .max(SIWE_LIMITS.signatureLength)
      .regex(HEX_BYTES, { message: 'must be 0x-prefixed hex bytes' })
      .meta({
        description:
          "the address's EIP-191 (personal_sign) signature of the message: 65 bytes for an account with a key, an ERC-1271 signature for a smart account, ERC-6492-wrapped for one not deployed yet",
      }),
  })
  .meta({ title: 'SiweSignedMessage' });
export type SiweSignedMessage = z.infer<typeof siweSignedMessageSchema>;

/** The answer of link-address: the address (EIP-55) now linked to the caller. */
export const linkAddressResponseSchema = z
  .object({
    address: z.string().meta({ description: 'the linked address (EIP-55 checksummed)' }),
    userId: z.string().meta({ description: 'the user it is linked to (the caller)' }),
  })
  .meta({ title: 'LinkAddressResponse' });
export type LinkAddressResponse = z.infer<typeof linkAddressResponseSchema>;

/** POST /v2/auth/unlink-address. */
export const unlinkAddressRequestSchema = z
  .object({
    address: z
      .string()
      .regex(ADDRESS, { message: 'must be a 0x-prefixed 20-byte hex address' })
      .meta({ description: 'an address linked to the caller (any letter case)' }),
  })
  .meta({ title: 'UnlinkAddressRequest' });
export type UnlinkAddressRequest = z.infer<typeof unlinkAddressRequestSchema>;

/** The answer of unlink-address. */
export const unlinkAddressResponseSchema = z
  .object({
    address: z.string().meta({ description: 'the address no longer linked (EIP-55)' }),
    userId: z.string().meta({ description: 'the user it was linked to (the caller)' }),
  })
  .meta({ title: 'UnlinkAddressResponse' });
export type UnlinkAddressResponse = z.infer<typeof unlinkAddressResponseSchema>;
