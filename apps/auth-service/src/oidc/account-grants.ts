import type { AdapterFactory } from 'oidc-provider';
import type { KvStore } from '@itp/stores';
import { ServiceUnavailableError } from '@itp/errors';
import { accountGrantsKey } from './kv-oidc-adapter.js';
import { OidcUnavailableError } from './oidc-unavailable.js';

/** The adapter answers a store outage the provider's way; the account's REST routes want a 503. */
async function restCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OidcUnavailableError) {
      throw new ServiceUnavailableError('The session store is unavailable; try again later', {
        cause: err,
      });
    }
    throw err;
  }
}

/** A site (OpenID Connect client) holding a grant of the user. */
export interface AccountGrant {
  grantId: string;
  clientId: string;
  /** Epoch seconds: when the grant was made (the user's first login to the site in it). */
  grantedAt: number;
}

/**
 * The user's OpenID Connect grants, as the account sees and ends them (docs/api.md §12): listed
 * from the account's grant list the adapter keeps in Redis and the grants it keeps in SQL (those
 * with refresh tokens, which outlive a Redis loss), ended by destroying the grant and everything
 * issued under it (codes, access and refresh tokens).
 */
/** Where the grants that outlive Redis are found (the adapter's SQL copies, offline_access). */
export interface DurableGrants {
  grantIdsOf(accountId: string, now: number): Promise<string[]>;
}

export class OidcAccountGrants {
  constructor(
    private readonly kv: KvStore,
    private readonly adapter: AdapterFactory,
    /** Grants kept in SQL: listed also when Redis lost or reverted the account's grant list. */
    private readonly durable?: DurableGrants,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The user's live grants, oldest first (expired ones are dropped from the list). */
  async list(accountId: string): Promise<AccountGrant[]> {
    return restCall(async () => {
      const raw = await this.kv.get(accountGrantsKey(accountId));
      const kept = (await this.durable?.grantIdsOf(accountId, this.clock())) ?? [];
      const ids = [...new Set([...(raw === null ? [] : (JSON.parse(raw) as string[])), ...kept])];
      const grants = this.adapter('Grant');
      const found = await Promise.all(
        ids.map(async (grantId) => ({ grantId, payload: await grants.find(grantId) })),
      );
      return found
        .flatMap(({ grantId, payload }) =>
          payload && payload.accountId === accountId && typeof payload.clientId === 'string'
            ? [{ grantId, clientId: payload.clientId, grantedAt: Number(payload.iat ?? 0) }]
            : [],
        )
        .sort((a, b) => a.grantedAt - b.grantedAt);
    });
  }

  /**
   * Ends the user's grants (of one site with `clientId`, else all): the grant and every code,
   * access token and refresh token issued under it. Resolves to how many grants were ended.
   */
  async revoke(accountId: string, clientId?: string): Promise<number> {
    const ended = (await this.list(accountId)).filter(
      (grant) => clientId === undefined || grant.clientId === clientId,
    );
    await restCall(async () => {
      const grants = this.adapter('Grant');
      const tokens = this.adapter('AccessToken');
      for (const { grantId } of ended) {
        await tokens.revokeByGrantId(grantId);
        await grants.destroy(grantId);
      }
    });
    return ended.length;
  }
}
