/**
 * The durable record of login VPs already used (SQL): a replayed VP is refused also after Redis
 * restarted empty (docs/api.md §2).
 */
export interface VpUseLedger {
  /** Marks the VP used until `expiresAt`; false when it was used before (a replay). */
  markVpUsed(idHash: string, expiresAt: number, now: number): Promise<boolean>;
}
