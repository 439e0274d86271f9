import { randomHex } from '@itp/crypto';
import { InternalError, isBaseError } from '@itp/errors';
import type { TempKeyType } from '@itp/schemas';
import type { KvStore } from '@itp/stores';

/** What a tempKey is bound to. */
export interface TempKeyBinding {
  /** EIP-55 checksummed wallet address. */
  address: string;
  keyType: TempKeyType;
}

function keyOf(tempKey: string): string {
  return `tempkey:${tempKey}`;
}

function parse(value: string | null): TempKeyBinding | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as Partial<TempKeyBinding>;
    if (typeof parsed.address === 'string' && typeof parsed.keyType === 'string') {
      return { address: parsed.address, keyType: parsed.keyType as TempKeyType };
    }
  } catch {
    // fall through: a value we did not write is no binding
  }
  return null;
}

async function kvCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isBaseError(err)) throw err;
    throw new InternalError('the temporary key store (Redis) is unavailable', { cause: err });
  }
}

/**
 * Temporary keys in the KvStore: `tempkey:<tempKey>` → `{ address, keyType }` with a TTL
 * (TEMP_KEY_TTL_MS). A transaction consumes its tempKey with one GETDEL, so of many concurrent
 * requests with one tempKey exactly one gets the binding; signData only peeks.
 */
export class TempKeyStore {
  constructor(
    private readonly kv: KvStore,
    private readonly ttlMs: number,
  ) {}

  /** A new tempKey (256 random bits, 64 hex digits) bound to the address and keyType. */
  async issue(binding: TempKeyBinding): Promise<string> {
    const tempKey = randomHex(32);
    await kvCall(() => this.kv.set(keyOf(tempKey), JSON.stringify(binding), { ttlMs: this.ttlMs }));
    return tempKey;
  }

  /** The binding without consuming it; null when unknown, expired or used. */
  peek(tempKey: string): Promise<TempKeyBinding | null> {
    return kvCall(async () => parse(await this.kv.get(keyOf(tempKey))));
  }

  /** Atomically reads and deletes: only the first caller gets the binding. */
  consume(tempKey: string): Promise<TempKeyBinding | null> {
    return kvCall(async () => parse(await this.kv.getDel(keyOf(tempKey))));
  }
}
