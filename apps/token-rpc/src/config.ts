import { z } from 'zod';
import { parseMasterKey } from '@itp/crypto';
import { publicUrlSetting } from '@itp/jsonrpc';
import {
  baseConfigShape,
  internalApiAcceptedTokensSetting,
  internalListenerConfigShape,
  internalTokenSetting,
  retiredInternalApiTokenSetting,
  trustProxySetting,
} from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';
import { chainConfigShape } from '@itp/chain';

const positiveInt = z.coerce.number().int().positive();
/** A per-client limit: calls per minute, 0 = off. */
const perMinute = z.coerce.number().int().min(0);

function isMasterKey(value: string): boolean {
  try {
    parseMasterKey(value);
    return true;
  } catch {
    return false;
  }
}

const MASTER_KEY_FORMAT =
  'must be "<id>:<base64 of 32 bytes>", base64 of 32 bytes, or 64 hex digits';

export const configShape = {
  ...baseConfigShape,
  ...storeConfigShape,
  ...chainConfigShape,
  ...internalListenerConfigShape,
  PORT: baseConfigShape.PORT.default(8083),
  /**
   * AES-256-GCM master key sealing the wallet's private keys, mnemonics and secretKeys (a
   * deployment secret). Required outside development; in development it is generated once into
   * DATA_DIR/secrets/wallet-master.key.
   */
  WALLET_MASTER_KEY: z.string().refine(isMasterKey, MASTER_KEY_FORMAT).optional(),
  /** Comma-separated previous master keys (rotation): values sealed under them still open. */
  WALLET_PREVIOUS_MASTER_KEYS: z
    .string()
    .refine(
      (v) => v.split(',').every((k) => isMasterKey(k.trim())),
      `each key ${MASTER_KEY_FORMAT}`,
    )
    .optional(),
  /**
   * Bearer token of the internal wallet API, which only did-service calls (served on
   * INTERNAL_PORT). Required outside development; in development it defaults to
   * DATA_DIR/secrets/internal-token-did-to-token-rpc (generated once).
   */
  INTERNAL_TOKEN_DID_TO_TOKEN_RPC: internalTokenSetting,
  INTERNAL_API_TOKEN: retiredInternalApiTokenSetting,
  /** Rotation window: more tokens /internal/v1 accepts (never sent); docs/operations.md. */
  INTERNAL_API_ACCEPTED_TOKENS: internalApiAcceptedTokensSetting,
  /** Lifetime of a tempKey (default 5 minutes). */
  TEMP_KEY_TTL_MS: positiveInt.default(300_000),
  /**
   * How long an identical retry of a transaction request (same tempKey, params and signature)
   * gets the first request's answer (default 24 hours); later it is "409" like any used tempKey.
   */
  TEMP_KEY_RETRY_TTL_MS: positiveInt.default(86_400_000),
  /** How long an identical retry waits for the first request while it still runs (default 10 s). */
  TEMP_KEY_RETRY_WAIT_MS: positiveInt.default(10_000),
  /**
   * Time between two runs of the transaction reconciler (the first runs right after start), which
   * settles records that are not final against the chain; 0 = off (another replica does it).
   */
  TX_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 100, 'must be 0 (off) or at least 100 ms')
    .default(30_000),
  /** The reconciler leaves a record alone while it changed less than this long ago. */
  TX_RECONCILE_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Per-address nonce lease: time to live. The holder renews it every third of it, so this only
   * bounds how long a lease whose holder is gone blocks the address.
   */
  NONCE_LEASE_TTL_MS: positiveInt.min(300).default(5_000),
  /** How long a transaction waits for the nonce lease (then "503"; well under the gateway's timeout). */
  NONCE_LEASE_WAIT_MS: positiveInt.default(10_000),
  /** Time to live of the stored next nonce; after it the chain's pending nonce decides alone. */
  NONCE_CACHE_TTL_MS: positiveInt.default(120_000),
  /** How long the chain's pending nonce may stay behind the stored one before the chain decides. */
  NONCE_GAP_TIMEOUT_MS: positiveInt.default(30_000),
  /** Margin added to a contract call's gas estimate, in percent. */
  GAS_ESTIMATE_MARGIN_PERCENT: z.coerce.number().int().min(0).max(200).default(20),
  /**
   * Which peers may report the client address in X-Forwarded-For (the rate limits count per
   * client address): false (default: the TCP peer is the client), true, a hop count, or
   * addresses / CIDR subnets / loopback, linklocal, uniquelocal. Set it to the gateway's address.
   */
  TRUST_PROXY: trustProxySetting,
  /** Public base URL of the API (the gateway's): the OpenRPC documents' servers[].url. */
  PUBLIC_URL: publicUrlSetting,
  /** createAddress + importAddress (one counter) per client address per minute; 0 = no limit. */
  RATE_LIMIT_WALLET_PER_MINUTE: perMinute.default(30),
  /** net_getTempKey per client address per minute; 0 = no limit. */
  RATE_LIMIT_TEMP_KEY_PER_MINUTE: perMinute.default(300),
  /** signData per client address per minute; 0 = no limit. */
  RATE_LIMIT_SIGN_DATA_PER_MINUTE: perMinute.default(300),
  /**
   * Reads per client address per minute, one counter for getBalance, getTransactionStatus and
   * the ERC-20 reads of /token/erc20 (each a chain or database call); 0 = no limit.
   */
  RATE_LIMIT_READ_PER_MINUTE: perMinute.default(600),
  /** Development only: wei sent to each new address (default 10 ETH). */
  DEV_FUNDING_WEI: z
    .string()
    .regex(/^[1-9][0-9]{0,40}$/, 'must be a positive decimal integer (wei)')
    .default('10000000000000000000'),
  /** Development only: how long createAddress waits for the funding to be mined. */
  DEV_FUNDING_TIMEOUT_MS: positiveInt.default(30_000),
} as const;

/** Secrets that have no default outside development (docs/api.md §1: refuse to start without them). */
const REQUIRED_SECRETS = ['WALLET_MASTER_KEY', 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC'] as const;

export const tokenRpcConfigSchema = z.object(configShape).superRefine((config, ctx) => {
  if (config.APP_ENV === 'development') return;
  for (const name of REQUIRED_SECRETS) {
    if (config[name] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `required when APP_ENV=${config.APP_ENV} (a deployment secret)`,
      });
    }
  }
});

export type TokenConfig = z.infer<typeof tokenRpcConfigSchema>;
