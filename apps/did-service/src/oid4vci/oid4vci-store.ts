import { createHash } from 'node:crypto';
import { SqlOneTimeMarks, type KvStore, type SqlDatabase } from '@itp/stores';
import type { CredentialOfferRequest } from '@itp/schemas';
import type { DidTables } from '../db/did-tables.js';

/** What a pre-authorized code (and then its access token) grants: one credential for a user. */
export interface Oid4vciGrant {
  userId: string;
  userInfo: CredentialOfferRequest['userInfo'];
  /** The offer it came from (logs, one credential per offer). */
  offerId: string;
  /**
   * When the offer was made (epoch ms): a password reset, a disable or a logout everywhere after
   * it (the user's `tokensValidAfter`) ends it. Absent in records written before it was kept.
   */
  offerCreatedAt?: number;
  /**
   * The one credential configuration the offer names (`itp_profile_jwt_vc_json` or
   * `itp_profile_sd_jwt`). Absent in records written before there were two: jwt_vc_json.
   */
  credentialConfigurationId?: string;
}

/** A pre-authorized code, kept under the hash of the code. */
export interface PreAuthorizedCodeRecord extends Oid4vciGrant {
  /** The transaction code the user was given (absent: none asked for). */
  txCode?: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** An access token of the token endpoint, kept under its hash. */
export interface AccessTokenRecord extends Oid4vciGrant {
  /** Epoch ms. */
  expiresAt: number;
  /**
   * DPoP-bound (RFC 9449): the RFC 7638 thumbprint of the key of the token request's DPoP proof.
   * Then the credential endpoint takes the token only as `Authorization: DPoP` with a proof by
   * that key. Absent: a Bearer token.
   */
  dpopJkt?: string;
}

/** A record with the exact JSON it was read as (the compare-and-swap operand). */
export interface Stored<T> {
  raw: string;
  value: T;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The OpenID4VCI state of did-service in its KvStore (`did:oid4vci:*`; every replica serves every
 * step): offers (fetched once), pre-authorized codes, access tokens and c_nonces. Codes, tokens
 * and nonces are stored under their SHA-256 only. Every one-time or counted rule is one atomic
 * Redis step (getDel, compare-and-swap, or an INCR whose answer decides: tx_code attempts), and a
 * redeemed code or a spent nonce is also marked in SQL
 * (`did_oid4vci_uses`), so a Redis that restarts empty or from an older snapshot cannot make
 * one usable again (docs/adr/0019).
 */
export class Oid4vciStore {
  private readonly uses: SqlOneTimeMarks;

  constructor(
    private readonly kv: KvStore,
    database: SqlDatabase<DidTables>,
  ) {
    this.uses = new SqlOneTimeMarks(database, { table: 'did_oid4vci_uses' });
  }

  /** Keeps the offer JSON for one GET. */
  async putOffer(id: string, offer: string, ttlMs: number): Promise<void> {
    await this.kv.set(`oid4vci:offer:${id}`, offer, { ttlMs });
  }

  /** The offer JSON, once (the first caller gets it, the others undefined). */
  async takeOffer(id: string): Promise<string | undefined> {
    return (await this.kv.getDel(`oid4vci:offer:${id}`)) ?? undefined;
  }

  async putCode(code: string, record: PreAuthorizedCodeRecord, ttlMs: number): Promise<void> {
    await this.kv.set(this.codeKey(code), JSON.stringify(record), { ttlMs });
  }

  async readCode(code: string): Promise<Stored<PreAuthorizedCodeRecord> | undefined> {
    const raw = await this.kv.get(this.codeKey(code));
    return raw === null ? undefined : { raw, value: JSON.parse(raw) as PreAuthorizedCodeRecord };
  }

  /** Drops the code (redeemed, burned by wrong tx_codes, or ended with the account). */
  async dropCode(code: string): Promise<void> {
    await this.kv.del(this.codeKey(code));
  }

  /**
   * Counts one tx_code attempt on `code` and answers its number (1 for the first), one atomic INCR
   * on every replica: the caller compares the tx_code only when the number is within the limit, so
   * concurrent guesses never get more comparisons than the limit. The counter outlives the code
   * (`ttlMs`, set by the first attempt).
   */
  countTxCodeAttempt(code: string, ttlMs: number): Promise<number> {
    return this.kv.incr(`oid4vci:tx-attempts:${sha256(code)}`, { ttlMs });
  }

  async putAccessToken(token: string, record: AccessTokenRecord, ttlMs: number): Promise<void> {
    await this.kv.set(this.tokenKey(token), JSON.stringify(record), { ttlMs });
  }

  async readAccessToken(token: string): Promise<Stored<AccessTokenRecord> | undefined> {
    const raw = await this.kv.get(this.tokenKey(token));
    return raw === null ? undefined : { raw, value: JSON.parse(raw) as AccessTokenRecord };
  }

  /** Spends the access token read as `current`; false when another request spent it first. */
  spendAccessToken(token: string, current: Stored<AccessTokenRecord>): Promise<boolean> {
    return this.kv.compareAndSwap(this.tokenKey(token), current.raw, null);
  }

  async putNonce(nonce: string, expiresAt: number, ttlMs: number): Promise<void> {
    await this.kv.set(this.nonceKey(nonce), String(expiresAt), { ttlMs });
  }

  /** Takes a c_nonce once: its expiry (epoch ms), or undefined when unknown or taken before. */
  async takeNonce(nonce: string): Promise<number | undefined> {
    const raw = await this.kv.getDel(this.nonceKey(nonce));
    return raw === null ? undefined : Number(raw);
  }

  /**
   * Marks a one-time value (`kind` code, nonce, or `dpop`: `<jkt>:<jti>` of a DPoP proof) used in SQL (libs/stores' one-time marks on
   * `did_oid4vci_uses`): true for the first caller on any replica, false when it was used before.
   * The value itself is not stored, only its hash (`sha256("<kind>:<value>")`, as before the
   * port: rows written by an older did-service keep counting).
   */
  markUsed(kind: 'code' | 'nonce' | 'dpop', value: string, expiresAt: number, now: number) {
    return this.uses.mark(`${kind}:${value}`, expiresAt, now);
  }

  private codeKey(code: string): string {
    return `oid4vci:code:${sha256(code)}`;
  }

  private tokenKey(token: string): string {
    return `oid4vci:token:${sha256(token)}`;
  }

  private nonceKey(nonce: string): string {
    return `oid4vci:nonce:${sha256(nonce)}`;
  }
}
