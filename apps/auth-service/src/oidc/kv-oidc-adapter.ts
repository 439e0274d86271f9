import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { sha256Hex } from '@itp/crypto';
import type { KvStore } from '@itp/stores';
import { unlessUnavailable } from './oidc-unavailable.js';

/** Models whose records belong to a grant: revoking the grant removes them all. */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/**
 * Models whose id is the bearer credential itself (the opaque token a site or the provider's
 * token endpoint is handed): stored under the id's SHA-256 and without it (the payload's `jti`
 * is put back on reading), so that a read of Redis yields no usable code or token.
 */
const BEARER = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken']);

/** The list of an account's grant ids (may name grants that expired since: readers skip them). */
export const accountGrantsKey = (accountId: string) => `oidc:accountGrants:${accountId}`;

/** Compare-and-swap retries before giving up (only reached under absurd contention). */
const MAX_ATTEMPTS = 8;

/** The relying parties: looked up in the database on every use (a disabled one stops at once). */
export type ClientLookup = (id: string) => Promise<AdapterPayload | undefined>;

function epochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function parse(raw: string | null): AdapterPayload | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as AdapterPayload);
}

/**
 * oidc-provider's storage on the service's KvStore (Redis; the dev stand-in in development), so
 * that every replica serves every step: sessions, interactions, authorization codes, tokens and
 * grants live under `oidc:<Model>:<id>` with the provider's own lifetimes as TTLs. A grant keeps
 * the list of its records (`oidc:grant:<grantId>`) for revocation, an account the list of its
 * grants (`oidc:accountGrants:<accountId>`); a session is also found by its uid. Codes and tokens are kept under their SHA-256 (BEARER), never in clear. Consuming a record
 * is one compare-and-swap: of concurrent redemptions of one authorization code, on any replica,
 * exactly one succeeds and the others get `invalid_grant`. Clients are not stored here: `clients`
 * reads them from the database.
 */
export function kvOidcAdapter(kv: KvStore, clients: ClientLookup): AdapterFactory {
  return (model: string): Adapter => {
    const bearer = BEARER.has(model);
    const key = (id: string) => `oidc:${model}:${bearer ? sha256Hex(id) : id}`;
    const grantKey = (grantId: string) => `oidc:grant:${grantId}`;
    const uidKey = (uid: string) => `oidc:sessionUid:${uid}`;

    const find = async (id: string): Promise<AdapterPayload | undefined> => {
      if (model === 'Client') return clients(id);
      const payload = parse(await kv.get(key(id)));
      return payload && bearer ? { ...payload, jti: id } : payload;
    };

    /** Adds `member` to the list at `listKey`, which lives as long as its longest member. */
    const remember = async (listKey: string, member: string, ttlMs: number | undefined) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const current = await kv.get(listKey);
        const members = current === null ? [] : (JSON.parse(current) as string[]);
        if (members.includes(member)) return;
        const next = JSON.stringify([...members, member]);
        // A member without expiry, or a list without one, keeps the list forever.
        const remaining = current === null ? 0 : await kv.ttlMs(listKey);
        const ttl =
          ttlMs === undefined || remaining === null ? undefined : Math.max(ttlMs, remaining);
        if (current === null) {
          if (await kv.set(listKey, next, { onlyIfAbsent: true, ttlMs: ttl })) return;
        } else if (await kv.compareAndSwap(listKey, current, next, { ttlMs: ttl })) {
          return;
        }
      }
      throw new Error(`could not record a member of ${listKey}`);
    };

    const adapter: Adapter = {
      async upsert(id, payload, expiresIn) {
        const ttlMs = typeof expiresIn === 'number' ? expiresIn * 1000 : undefined;
        const stored = bearer ? { ...payload, jti: undefined } : payload;
        await kv.set(key(id), JSON.stringify(stored), ttlMs === undefined ? {} : { ttlMs });
        if (GRANTABLE.has(model) && typeof payload.grantId === 'string') {
          await remember(grantKey(payload.grantId), key(id), ttlMs);
        }
        // The account's grants (docs/api.md §12: the sites a user sees and ends).
        if (model === 'Grant' && typeof payload.accountId === 'string') {
          await remember(accountGrantsKey(payload.accountId), id, ttlMs);
        }
        if (typeof payload.uid === 'string') {
          await kv.set(uidKey(payload.uid), id, ttlMs === undefined ? {} : { ttlMs });
        }
      },

      find,

      async findByUid(uid) {
        const id = await kv.get(uidKey(uid));
        return id === null ? undefined : find(id);
      },

      // The device flow is not enabled: there are no user codes.
      async findByUserCode() {
        return undefined;
      },

      async consume(id) {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
          const current = await kv.get(key(id));
          const payload = parse(current);
          if (current === null || !payload) return;
          if (payload.consumed) throw new errors.InvalidGrant(`${model} already consumed`);
          const next = JSON.stringify({ ...payload, consumed: epochSeconds() });
          if (await kv.compareAndSwap(key(id), current, next)) return;
        }
        throw new errors.InvalidGrant(`${model} could not be consumed`);
      },

      async destroy(id) {
        const payload = parse(await kv.get(key(id)));
        await kv.del(key(id));
        if (typeof payload?.uid === 'string' && (await kv.get(uidKey(payload.uid))) === id) {
          await kv.del(uidKey(payload.uid));
        }
      },

      async revokeByGrantId(grantId) {
        const members = await kv.getDel(grantKey(grantId));
        if (members === null) return;
        await Promise.all((JSON.parse(members) as string[]).map((member) => kv.del(member)));
      },
    };
    // A store outage is the provider's 503 temporarily_unavailable, never a 500.
    return Object.fromEntries(
      Object.entries(adapter).map(([name, method]) => [
        name,
        (...args: unknown[]) =>
          unlessUnavailable(() => (method as (...a: unknown[]) => Promise<unknown>)(...args)),
      ]),
    ) as unknown as Adapter;
  };
}
