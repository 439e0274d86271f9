import type { StatusIndexAllocator } from './status-index-allocator.js';
import type { TokenStatusEntry, TokenStatusLists } from './token-status-lists.js';
import { sdJwtIssuerOf, tokenListUri } from './token-status-list-urls.js';

/**
 * The SD-JWT VCs' status entries (IETF Token Status List) in the SQL status-list store: the same
 * allocator as the W3C lists (random free index, the database's primary key decides between
 * replicas, a new list when one is full), under lists of their own whose issuer column is the
 * SD-JWT VC issuer `<PUBLIC_URL>/v2/did/oid4vci` (the W3C lists' is the issuer DID). Each entry
 * names the user, so a password reset (`revokeUserEntries`) revokes SD-JWT VCs too.
 */
export class TokenStatusListAllocator implements TokenStatusLists {
  /** The issuer column of the lists this allocator fills (the SD-JWT VCs' `iss`). */
  readonly issuer: string;

  constructor(
    private readonly allocator: StatusIndexAllocator,
    /** PUBLIC_URL (the gateway's address). */
    publicUrl: string,
  ) {
    this.issuer = sdJwtIssuerOf(publicUrl);
  }

  async allocate(userId: string): Promise<TokenStatusEntry> {
    const { listId, index } = await this.allocator.allocate(this.issuer, userId);
    return { idx: index, uri: tokenListUri(this.issuer, listId) };
  }
}
