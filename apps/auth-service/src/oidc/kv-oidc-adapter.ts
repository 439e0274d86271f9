import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { sha256Hex } from '@itp/crypto';
import { oneTimeKey, type KvStore, type OneTimeMarks } from '@itp/stores';
import { unlessUnavailable } from './oidc-unavailable.js';

/**
 * Models whose id is the bearer credential itself (the opaque token a site or the provider's
 * token endpoint is handed): stored under the id's SHA-256 and without it (the payload's `jti`
 * is put back on reading), so that a read of Redis yields no usable code or token.
 */
const BEARER = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken']);

/**
 * Models used once, decided in SQL (docs/api.md §9): consuming one takes a one-time mark first, and
 * a record whose mark exists is not found even when Redis shows it unconsumed (Redis went back).
 */
const ONE_TIME = new Set(['AuthorizationCode', 'RefreshToken']);

/** The list of an account's grant ids (may name grants that expired since: readers skip them). */
export const accountGrantsKey = (accountId: string) => `oidc:accountGrants:${accountId}`;

/** Compare-and-swap retries before giving up (only reached under absurd contention). */
const MAX_ATTEMPTS = 8;

/** The relying parties: looked up in the database on every use (a disabled one stops at once). */
export type ClientLookup = (id: string) => Promise<AdapterPayload | undefined>;

/** A record kept in SQL as well as in Redis (as stored: a bearer record without its token value). */
export interface OidcDurableRecord {
  payload: AdapterPayload;
  grantId?: string;
  accountId?: string;
  /** Epoch ms. */
  expiresAt: number;
}

/**
 * The durable copies of the records a Redis that went back or restarted empty must not lose:
 * refresh tokens and the grants with offline_access they belong to (SQL; `id` is the id the
 * record is stored under: a token's SHA-256, a grant's id).
 */
export interface OidcDurableRecords {
  save(model: string, id: string, record: OidcDurableRecord, now: number): Promise<void>;
  /** The record unless it expired before `now`. */
  find(model: string, id: string, now: number): Promise<AdapterPayload | undefined>;
  remove(model: string, id: string): Promise<void>;
  /** Removes the records of a grant (the grant's own too): what was removed, for their marks. */
  removeByGrant(grantId: string): Promise<Array<{ model: string; id: string; expiresAt: number }>>;
}

/** The SQL side of the adapter (docs/adr/0024, amendment "Redis may go back in time"). */
export interface OidcSqlSide {
  /** One-time marks (SQL): used codes and refresh tokens, ended tokens and grants. */
  marks: OneTimeMarks;
  records: OidcDurableRecords;
  /** The longest life of a grant: how long an ended grant's mark is kept. */
  maxGrantLifetimeMs: number;
  /**
   * A use in one step: the one-time mark of `key` (true only for the first, as `marks.mark`) and,
   * once taken, the removal of the durable copy `copy` (OidcSqlStatements: one round trip).
   */
  useOnce(
    key: string,
    expiresAt: number,
    now: number,
    copy?: { model: string; id: string },
  ): Promise<boolean>;
  clock?: () => number;
}

/** Whether a grant holds offline_access (only such grants hold refresh tokens). */
function isOfflineGrant(payload: AdapterPayload): boolean {
  const scope = (payload as { openid?: { scope?: unknown } }).openid?.scope;
  return typeof scope === 'string' && scope.split(' ').includes('offline_access');
}

/** A record's own expiry (`exp`, epoch seconds) in epoch ms, if it has one. */
function expiryMs(payload: AdapterPayload | undefined): number | undefined {
  return typeof payload?.exp === 'number' ? payload.exp * 1000 : undefined;
}

function parse(raw: string | null): AdapterPayload | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as AdapterPayload);
}

/**
 * oidc-provider's storage on the service's KvStore (Redis; the dev stand-in in development), so
 * that every replica serves every step: sessions, interactions, authorization codes, tokens and
 * grants live under `oidc:<Model>:<id>` with the provider's own lifetimes as TTLs. An account
 * keeps the list of its grants (`oidc:accountGrants:<accountId>`); a session is also found by its
 * uid. A grant keeps no list of its codes and tokens (ADR 0037): each use of one finds its grant,
 * so revoking the grant ends them all. Codes and tokens are kept under their SHA-256 (BEARER),
 * never in clear. Consuming a record
 * is one compare-and-swap: of concurrent redemptions of one authorization code, on any replica,
 * exactly one succeeds and the others get `invalid_grant`. Clients are not stored here: `clients`
 * reads them from the database.
 *
 * Redis may go back in time (restart empty, fail over to a replica that lagged, be restored from
 * a backup), so what must happen once is decided in SQL (`sql`): consuming a code or a refresh
 * token first takes a one-time mark (`oidc` / model / SHA-256), and `find` answers a code or
 * refresh token whose mark exists as not found even when Redis shows it unconsumed — not as
 * "consumed", which oidc-provider treats as a stolen token and answers by revoking the grant: a
 * rotated refresh token stays refused and the current one keeps working. Reuse that Redis itself
 * saw (a consumed record) stays the provider's case (the grant is revoked). Refresh tokens and
 * the grants with offline_access are kept in SQL as well (`sql.records`), so that the current
 * refresh token survives a Redis that lost it; ending one (destroy, a grant's revocation) marks it
 * and removes its copy, and an ended grant's mark refuses the grant (and so every token of it) if
 * Redis brings it back. A reset or logout everywhere ends them through the user's epoch
 * (findAccount).
 */
export function kvOidcAdapter(
  kv: KvStore,
  clients: ClientLookup,
  sql: OidcSqlSide,
): AdapterFactory {
  const clock = sql.clock ?? Date.now;
  const epochSeconds = () => Math.floor(clock() / 1000);
  const grantMarkKey = (grantId: string) => oneTimeKey('oidc', 'Grant', grantId);

  /** Ends a grant in SQL: its mark, and every durable record of it marked and removed. */
  const endGrantInSql = async (grantId: string, grantExpiresAt?: number) => {
    const now = clock();
    await sql.marks.mark(
      grantMarkKey(grantId),
      grantExpiresAt ?? now + sql.maxGrantLifetimeMs,
      now,
    );
    for (const removed of await sql.records.removeByGrant(grantId)) {
      if (removed.model === 'Grant') continue;
      await sql.marks.mark(oneTimeKey('oidc', removed.model, removed.id), removed.expiresAt, now);
    }
  };

  return (model: string): Adapter => {
    const bearer = BEARER.has(model);
    const oneTime = ONE_TIME.has(model);
    /** Models with a durable copy: refresh tokens, and grants (those with offline_access). */
    const durable = model === 'RefreshToken' || model === 'Grant';
    const storedId = (id: string) => (bearer ? sha256Hex(id) : id);
    const key = (id: string) => `oidc:${model}:${storedId(id)}`;
    const markKey = (id: string) => oneTimeKey('oidc', model, storedId(id));
    const uidKey = (uid: string) => `oidc:sessionUid:${uid}`;

    /** The record as stored (Redis, else its durable copy), without the bearer's value. */
    const read = async (id: string): Promise<AdapterPayload | undefined> => {
      const cached = parse(await kv.get(key(id)));
      if (cached || !durable) return cached;
      return sql.records.find(model, storedId(id), clock());
    };

    /** Whether SQL says the record was used or ended (Redis may show it as it was before). */
    const endedInSql = async (id: string, payload: AdapterPayload): Promise<boolean> => {
      const now = clock();
      if (model === 'Grant') return sql.marks.isMarked(grantMarkKey(id), now);
      // (A code or token of an ended grant is refused by the provider's grant check: the grant
      // is not found.)
      if (!oneTime || payload.consumed) return false;
      return sql.marks.isMarked(markKey(id), now);
    };

    const find = async (id: string): Promise<AdapterPayload | undefined> => {
      if (model === 'Client') return clients(id);
      const payload = await read(id);
      if (!payload || (await endedInSql(id, payload))) return undefined;
      return bearer ? { ...payload, jti: id } : payload;
    };

    /** Marks the record ended in SQL and removes its durable copy (destroy). */
    const endInSql = async (id: string, payload: AdapterPayload | undefined) => {
      const now = clock();
      if (model === 'Grant') {
        await endGrantInSql(id, expiryMs(payload));
        return;
      }
      if (oneTime) {
        await sql.marks.mark(markKey(id), expiryMs(payload) ?? now + sql.maxGrantLifetimeMs, now);
      }
      if (durable) await sql.records.remove(model, storedId(id));
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
        // The durable copy first: a refresh token handed out is always in SQL.
        if (model === 'RefreshToken' || (model === 'Grant' && isOfflineGrant(payload))) {
          const now = clock();
          await sql.records.save(
            model,
            storedId(id),
            {
              payload: stored,
              ...(typeof payload.grantId === 'string' ? { grantId: payload.grantId } : {}),
              ...(model === 'Grant' ? { grantId: id } : {}),
              ...(typeof payload.accountId === 'string' ? { accountId: payload.accountId } : {}),
              expiresAt: now + (ttlMs ?? sql.maxGrantLifetimeMs),
            },
            now,
          );
        }
        await kv.set(key(id), JSON.stringify(stored), ttlMs === undefined ? {} : { ttlMs });
        // Codes and tokens are not listed under their grant: each of their uses finds the grant
        // again (see revokeByGrantId), so a list would only grow with every rotation.
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
        // Redis's value as read for the mark, the first compare-and-swap's expected value (one
        // read fewer per use, ADR 0037 amendment): if it changed since, the swap fails and the
        // next attempt reads again.
        let first: string | null | undefined;
        if (oneTime) {
          // SQL decides: of any number of uses on any replica, and whatever Redis says, one.
          const now = clock();
          first = await kv.get(key(id));
          const payload =
            parse(first) ??
            (durable ? await sql.records.find(model, storedId(id), now) : undefined);
          if (payload?.consumed) throw new errors.InvalidGrant(`${model} already consumed`);
          const expiresAt = expiryMs(payload) ?? now + sql.maxGrantLifetimeMs;
          // A used refresh token needs no durable copy any more.
          const copy = durable ? { model, id: storedId(id) } : undefined;
          if (!(await sql.useOnce(markKey(id), expiresAt, now, copy))) {
            throw new errors.InvalidGrant(`${model} already consumed`);
          }
        }
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
          const current = attempt === 0 && first !== undefined ? first : await kv.get(key(id));
          const payload = parse(current);
          if (current === null || !payload) return;
          if (payload.consumed) throw new errors.InvalidGrant(`${model} already consumed`);
          const next = JSON.stringify({ ...payload, consumed: epochSeconds() });
          if (await kv.compareAndSwap(key(id), current, next)) return;
        }
        throw new errors.InvalidGrant(`${model} could not be consumed`);
      },

      async destroy(id) {
        const payload = await read(id);
        if (oneTime || durable) await endInSql(id, payload);
        await kv.del(key(id));
        if (typeof payload?.uid === 'string' && (await kv.get(uidKey(payload.uid))) === id) {
          await kv.del(uidKey(payload.uid));
        }
      },

      async revokeByGrantId(grantId) {
        // Every model's call ends the grant in SQL (idempotent): the provider and the account
        // revoke through whichever models they hold. Its codes and tokens are not deleted one by
        // one: every use of one finds its grant first (oidc-provider's validateGrant for codes
        // and refresh tokens, loadAccessTokenGrant for access tokens at userinfo), and an ended
        // grant is not found (its mark), so they end with it and expire in Redis on their own.
        await endGrantInSql(grantId);
        // The member list earlier versions kept (it expires on its own; it may be long).
        await kv.del(`oidc:grant:${grantId}`);
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
