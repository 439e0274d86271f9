import { LRUCache } from 'lru-cache';
import { sha256Hex } from '@itp/crypto';
import { BaseError } from '@itp/errors';
import { CONTROL_CHARACTER } from '@itp/schemas';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { clientGroup } from '@itp/service-kit';
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
    const credentials = parseBasicAuth(authorization);
    if (!credentials) {
      throw new InvalidClientError('Client authentication required (HTTP Basic)');
    }
    return this.check(credentials.id, credentials.secret, address);
  }

  /**
   * The OpenID Connect provider's client authentication (client_secret_basic or _post, parsed
   * by the provider): the same check, the same per-IP limit; false for any refusal.
   */
  async verifySecret(
    clientId: string,
    secret: string,
    address: string,
    /** How the row is read (the provider's: the row its request read already, ADR 0037). */
    findClient?: (id: string) => Promise<Client | undefined>,
  ): Promise<boolean> {
    try {
      await this.check(clientId, secret, address, findClient);
      return true;
    } catch (err) {
      if (err instanceof BaseError && err.status < 500) return false;
      throw err;
    }
  }

  private async check(
    id: string,
    secret: string,
    address: string,
    findClient: (id: string) => Promise<Client | undefined> = (clientId) =>
      this.clients.findById(clientId),
  ): Promise<Client> {
    const clientIp = clientGroup(address); // IPv6 counted by /64
    if (CONTROL_CHARACTER.test(id)) throw new MalformedClientIdError();
    await this.failuresPerIp.check(clientIp);
    const client = await findClient(id);
    const ok = client
      ? await this.secretMatches(client, secret)
      : await this.hasher.verifyDummy(secret);
    if (!client || !ok || !client.enabled) {
      await this.failuresPerIp.recordFailure(clientIp);
      throw new InvalidClientError('Client authentication failed', {
        details: { clientId: id },
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
