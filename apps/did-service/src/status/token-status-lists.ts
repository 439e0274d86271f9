/** An IETF Token Status List entry (draft-ietf-oauth-status-list): the SD-JWT VC's `status.status_list`. */
export interface TokenStatusEntry {
  idx: number;
  /** `<PUBLIC_URL>/v2/did/token-status-lists/<listId>`, served as `application/statuslist+jwt`. */
  uri: string;
}

/**
 * Status entries of SD-JWT VCs: one bit per credential (0 valid, 1 revoked), allocated in the same
 * SQL status-list store as the W3C Bitstring lists (so a user's reset revokes them too) under the
 * SD-JWT issuer's own lists.
 */
export interface TokenStatusLists {
  /** A fresh entry for one credential of `userId` (random index, never handed out twice). */
  allocate(userId: string): Promise<TokenStatusEntry>;
}
