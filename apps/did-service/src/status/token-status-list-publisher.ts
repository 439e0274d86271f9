import { createHash } from 'node:crypto';
import { StatusList, createHeaderAndPayload } from '@sd-jwt/jwt-status-list';
import type { StatusListStore } from '../db/status-lists.js';
import type { SdJwtIssuerKey, SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { tokenListBaseOf, tokenListUri } from './token-status-list-urls.js';

/** One signed status list token: what GET /v2/did/token-status-lists/<listId> answers. */
export interface SignedTokenStatusList {
  listId: string;
  revision: number;
  /** The status list token (`application/statuslist+jwt`). */
  jwt: string;
  /** A weak entity tag: SHA-256 of the signing input (same list, bits, window and signer). */
  etag: string;
  iat: number;
  exp: number;
}

export interface TokenStatusListPublisherDeps {
  store: StatusListStore;
  /** The SD-JWT issuer key; undefined when SD-JWT issuance is off (no list is served). */
  keys: SdJwtIssuerKeys | undefined;
  /** STATUS_LIST_MAX_AGE_SECONDS: Cache-Control max-age and the token's `ttl`. */
  maxAgeSeconds: number;
  /** The clock (ms), for specs. */
  now?: () => number;
}

/** The shortest time one signed token is reused (also when max-age is 0: no per-request signing). */
const MIN_REUSE_SECONDS = 60;

/**
 * The IETF token status lists of SD-JWT VCs (draft-ietf-oauth-status-list): a JWT with header
 * `{ alg: ES256, typ: statuslist+jwt, x5c }` signed by the current SD-JWT issuer key, payload
 * `{ sub: <list URI>, iat, exp, ttl, status_list: { bits: 1, lst } }`, `lst` made by
 * @sd-jwt/jwt-status-list (its bit order: index 0 the least significant bit of byte 0, unlike
 * the W3C bitstring). Timing: tokens are signed for windows of `reuse` = max(max-age, 60) s
 * aligned on the clock (`iat` = the window's start, `exp` = iat + 2 × reuse), so a token served
 * at the end of its window and cached for max-age (`ttl`) is still unexpired; every replica builds
 * the same signing input for a window, hence the same weak ETag. A new revision of the list (a
 * revocation) or another signer (a certificate renewal, a key import) is signed at once.
 */
export class TokenStatusListPublisher {
  private readonly memory = new Map<string, { token: SignedTokenStatusList; signer: string }>();
  private readonly inFlight = new Map<string, Promise<SignedTokenStatusList>>();
  private readonly reuseSeconds: number;
  private readonly now: () => number;
  private signed = 0;

  constructor(private readonly deps: TokenStatusListPublisherDeps) {
    this.reuseSeconds = Math.max(deps.maxAgeSeconds, MIN_REUSE_SECONDS);
    this.now = deps.now ?? Date.now;
  }

  /** How many tokens this instance has signed. */
  get signatures(): number {
    return this.signed;
  }

  /** The list's current token; undefined for no such token list or when issuance is off. */
  async current(listId: string): Promise<SignedTokenStatusList | undefined> {
    if (!this.deps.keys) return undefined;
    const row = await this.deps.store.list(listId);
    // A W3C list (issuer DID) is never served here, nor a token list at the W3C path.
    if (!row || tokenListBaseOf(row.issuer) === undefined) return undefined;
    const key = await this.deps.keys.current();
    const signer = signerOf(key);
    const nowSeconds = Math.floor(this.now() / 1000);
    const iat = nowSeconds - (nowSeconds % this.reuseSeconds);
    const kept = this.memory.get(listId);
    if (
      kept &&
      kept.token.revision === row.revision &&
      kept.token.iat === iat &&
      kept.signer === signer
    ) {
      return kept.token;
    }
    const flight = `${listId}@${row.revision}@${iat}@${signer}`;
    let signing = this.inFlight.get(flight);
    if (!signing) {
      const uri = tokenListUri(row.issuer, listId);
      signing = this.sign({ listId, uri, revision: row.revision, length: row.length }, key, iat)
        .then((token) => {
          const now = this.memory.get(listId);
          if (!now || (now.token.revision <= token.revision && now.token.iat <= token.iat)) {
            this.memory.set(listId, { token, signer });
          }
          return token;
        })
        .finally(() => this.inFlight.delete(flight));
      this.inFlight.set(flight, signing);
    }
    return signing;
  }

  private async sign(
    row: { listId: string; uri: string; revision: number; length: number },
    key: SdJwtIssuerKey,
    iat: number,
  ): Promise<SignedTokenStatusList> {
    // Read after the revision: the bits are those of this revision or newer, never older.
    const list = new StatusList(new Array<number>(row.length).fill(0), 1);
    for (const index of await this.deps.store.revokedIndexes(row.listId)) list.setStatus(index, 1);
    const exp = iat + 2 * this.reuseSeconds;
    const { header, payload } = createHeaderAndPayload(
      list,
      {
        sub: row.uri,
        iat,
        exp,
        // ttl must be positive (draft §5.1): none when the lists may not be cached at all.
        ...(this.deps.maxAgeSeconds > 0 ? { ttl: this.deps.maxAgeSeconds } : {}),
      },
      { alg: 'ES256', typ: 'statuslist+jwt', x5c: key.x5c },
    );
    const signingInput = `${base64url(header)}.${base64url(payload)}`;
    const jwt = `${signingInput}.${await key.sign(signingInput)}`;
    this.signed += 1;
    const etag = `W/"${createHash('sha256').update(signingInput).digest('base64url')}"`;
    return { listId: row.listId, revision: row.revision, jwt, etag, iat, exp };
  }
}

/** What identifies the signer in a token's header: the key and its certificate chain. */
function signerOf(key: SdJwtIssuerKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.publicJwk.x, key.publicJwk.y, key.x5c]))
    .digest('base64url');
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
