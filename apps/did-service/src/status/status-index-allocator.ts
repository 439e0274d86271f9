import { randomInt } from 'node:crypto';
import type { StatusListStore } from '../db/status-lists.js';
import { newStatusListId } from './status-list-urls.js';

/** A status list entry handed out for one VC. */
export interface AllocatedEntry {
  listId: string;
  index: number;
}

/** Random draws before the allocator lists the free indexes instead (a nearly full list). */
const RANDOM_DRAWS = 8;
/** Rounds (list chosen, index tried) before giving up: only reached under extreme contention. */
const MAX_ROUNDS = 50;
/**
 * How long an issuer's current list is reused without asking the database again. A list only
 * stops being current when it is full, and this replica then finds it out itself (no free index
 * left) and forgets it; a list another replica started meanwhile is used once this time ran out.
 */
const CURRENT_LIST_TTL_MS = 60_000;

/**
 * Hands out status list indexes (W3C Bitstring Status List §2.1: at random among the free ones,
 * so an index says nothing about when or to whom a VC was issued). The database decides: an index
 * is claimed by inserting its entry (primary key list id + index), so two replicas never hand out
 * the same one; a draw that hits a taken index draws again. After a few misses (a list close to
 * full) the free indexes are listed and one of them is picked at random; none left marks the list
 * full and the next list is used, created when there is none. Replicas that create a list at the
 * same time each create one: both are used, the oldest first. The current list of an issuer is
 * read once per CURRENT_LIST_TTL_MS, not per VC: a new entry costs one insert.
 */
export class StatusIndexAllocator {
  /** Each issuer's current list as last read or created here, and when (see CURRENT_LIST_TTL_MS). */
  private readonly current = new Map<string, { id: string; length: number; at: number }>();

  constructor(
    private readonly store: StatusListStore,
    /** Entries of each new list (STATUS_LIST_LENGTH). */
    private readonly length: number,
    /** Milliseconds now (tests). */
    private readonly now: () => number = Date.now,
  ) {}

  async allocate(issuer: string, userId: string): Promise<AllocatedEntry> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const list = await this.currentList(issuer);
      for (let draw = 0; draw < RANDOM_DRAWS; draw++) {
        const index = randomInt(list.length);
        if (await this.store.claim(list.id, index, userId)) return { listId: list.id, index };
      }
      const used = new Set(await this.store.usedIndexes(list.id));
      const free: number[] = [];
      for (let i = 0; i < list.length; i++) if (!used.has(i)) free.push(i);
      while (free.length > 0) {
        const at = randomInt(free.length);
        const index = free[at] as number;
        if (await this.store.claim(list.id, index, userId)) return { listId: list.id, index };
        // Taken meanwhile by another caller: drop it and pick again.
        free[at] = free[free.length - 1] as number;
        free.pop();
      }
      this.forget(issuer, list.id);
      await this.store.markFull(list.id);
    }
    throw new Error(`no free status list index for ${issuer} after ${MAX_ROUNDS} rounds`);
  }

  private async currentList(issuer: string): Promise<{ id: string; length: number }> {
    const kept = this.current.get(issuer);
    if (kept && this.now() - kept.at < CURRENT_LIST_TTL_MS) return kept;
    const stored = await this.store.currentList(issuer);
    let list: { id: string; length: number };
    if (stored) list = { id: stored.id, length: Number(stored.length) };
    else {
      list = { id: newStatusListId(), length: this.length };
      await this.store.createList(list.id, issuer, this.length);
    }
    this.current.set(issuer, { ...list, at: this.now() });
    return list;
  }

  private forget(issuer: string, listId: string): void {
    if (this.current.get(issuer)?.id === listId) this.current.delete(issuer);
  }
}
