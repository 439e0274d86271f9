import { LRUCache } from 'lru-cache';
import { sha256Hex } from '@itp/crypto';
import { CONTROL_CHARACTER } from '@itp/schemas';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { clientGroup } from '../rate-limit/client-group.js';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { Client } from './client.js';
import type { ClientRepository } from './client-repository.js';
import { InvalidClientError, MalformedClientIdError } from '../errors.js';
import { parseBasicAuth } from './parse-basic-auth.js';

export interface ClientAuthenticatorOptions {
  /** How long a verified (id, secret, stored hash) triple is remembered; 0 = never. */
  cacheTtlMs: number;
}

/**
 * Authenticates relying parties by HTTP Basic. The row is read on every call (a disabled client
 * is refused at once); only the costly argon2 check of a secret that verified before is cached
 * in process, keyed by a hash of id, secret and the stored hash (a new secret misses the cache).
 * An unknown id does the same argon2 work as a known one. Wrong credentials count against the
 * caller's IP (FailureCounter) and are refused with 429 once over the limit.
 */
export class ClientAuthenticator {
  private readonly verified: LRUCache<string, true> | undefined;

  constructor(
    private readonly clients: ClientRepository,
    private readonly hasher: PasswordHasher,
    private readonly failuresPerIp: FailureCounter,
    options: ClientAuthenticatorOptions,
  ) {
    this.verified =
      options.cacheTtlMs > 0 ? new LRUCache({ max: 1000, ttl: options.cacheTtlMs }) : undefined;
  }

  async authenticate(authorization: string | undefined, address: string): Promise<Client> {
    const clientIp = clientGroup(address); // IPv6 counted by /64
    const credentials = parseBasicAuth(authorization);
    if (!credentials) {
      throw new InvalidClientError('Client authentication required (HTTP Basic)');
    }
    if (CONTROL_CHARACTER.test(credentials.id)) throw new MalformedClientIdError();
    await this.failuresPerIp.check(clientIp);
    const client = await this.clients.findById(credentials.id);
    const ok = client
      ? await this.secretMatches(client, credentials.secret)
      : await this.hasher.verifyDummy(credentials.secret);
    if (!client || !ok || !client.enabled) {
      await this.failuresPerIp.recordFailure(clientIp);
      throw new InvalidClientError('Client authentication failed', {
        details: { clientId: credentials.id },
      });
    }
    return client;
  }

  private async secretMatches(client: Client, secret: string): Promise<boolean> {
    const cacheKey = sha256Hex(`${client.id}\u0000${secret}\u0000${client.secretHash}`);
    if (this.verified?.get(cacheKey)) return true;
    const ok = await this.hasher.verify(client.secretHash, secret);
    if (ok) this.verified?.set(cacheKey, true);
    return ok;
  }
}
