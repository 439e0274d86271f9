import { TooManyRequestsError } from '@itp/errors';
import type { KvStore } from '@itp/stores';

export interface CreateDidAttemptsOptions {
  maxFailures: number;
  windowSeconds: number;
}

/**
 * Limits guessing of a wallet address's secretKey through create-did: after `maxFailures` wrong
 * secrets for one address within the window, create-did answers 429 (Retry-After) for it until
 * the window ends.
 */
export class CreateDidAttempts {
  constructor(
    private readonly kv: KvStore,
    private readonly options: CreateDidAttemptsOptions,
  ) {}

  private key(address: string): string {
    return `create-did:failures:${address.toLowerCase()}`;
  }

  async assertAllowed(address: string): Promise<void> {
    const key = this.key(address);
    const failures = Number((await this.kv.get(key)) ?? '0');
    if (failures >= this.options.maxFailures) {
      const ttlMs = (await this.kv.ttlMs(key)) ?? this.options.windowSeconds * 1000;
      throw new TooManyRequestsError(
        'Too many failed create-did attempts for this address',
        ttlMs / 1000,
      );
    }
  }

  async recordFailure(address: string): Promise<void> {
    await this.kv.incr(this.key(address), { ttlMs: this.options.windowSeconds * 1000 });
  }
}
