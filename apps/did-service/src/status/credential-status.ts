import type { StatusListStore } from '../db/status-lists.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { failure, type VerificationFailure } from '../credentials/verification.js';
import { ANY_BASE_STATUS_LIST_URLS, type StatusListUrls } from './status-list-urls.js';

export const STATUS_ENTRY_TYPE = 'BitstringStatusListEntry';
export const REVOCATION = 'revocation';

/** A status entry of a VC that names one of this service's lists. */
export interface OwnStatusEntry {
  listId: string;
  index: number;
  /** statusListCredential as the VC says it. */
  listUrl: string;
  statusPurpose: unknown;
}

/** The `credentialStatus` entries of a VC's claims (one object or a list of them). */
export function statusEntriesOf(vc: unknown): unknown[] {
  const status = (vc as { credentialStatus?: unknown } | null | undefined)?.credentialStatus;
  if (status === undefined || status === null) return [];
  return Array.isArray(status) ? status : [status];
}

/**
 * The entry as one of ours (BitstringStatusListEntry on a list URL of this service with a
 * decimal index), or undefined for anything else.
 */
export function ownStatusEntry(
  entry: unknown,
  urls: Pick<StatusListUrls, 'listIdOf'>,
): OwnStatusEntry | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { type, statusListCredential, statusListIndex, statusPurpose } = entry as Record<
    string,
    unknown
  >;
  if (type !== STATUS_ENTRY_TYPE || typeof statusListCredential !== 'string') return undefined;
  const listId = urls.listIdOf(statusListCredential);
  const index = parseIndex(statusListIndex);
  if (listId === undefined || index === undefined) return undefined;
  return { listId, index, listUrl: statusListCredential, statusPurpose };
}

function parseIndex(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,9})$/.test(text)) return undefined;
  const index = Number(text);
  return index <= 2 ** 31 - 1 ? index : undefined;
}

/**
 * The status check of verify-vc, verify-vp and VP logins, for a VC already verified as signed by
 * an issuer DID of this service. Each `credentialStatus` entry is read straight from this
 * service's database (a revocation counts at once, whatever a list's cache time): a set bit is
 * `revoked`. An entry that cannot be checked is `status_unavailable`: the database cannot be
 * read, the entry is unknown, its purpose is not revocation, or the list is not one of this
 * service's (other issuers' lists are not fetched: only this service's VCs verify here at all).
 * A list URL under an earlier PUBLIC_URL counts as ours when the list exists here and belongs to
 * the VC's issuer (only that issuer's signature can name it: a VC issued before PUBLIC_URL
 * changed keeps its status).
 */
export class CredentialStatusChecker {
  constructor(
    private readonly store: StatusListStore,
    private readonly urls: StatusListUrls,
  ) {}

  /**
   * undefined when every entry says "not revoked" (or the VC has none). `vc`: the JWT's `vc`
   * claim; `issuer`: the DID that signed it (verified).
   */
  async check(vc: unknown, issuer: string): Promise<VerificationFailure | undefined> {
    for (const raw of statusEntriesOf(vc)) {
      let entry: OwnStatusEntry | undefined;
      try {
        entry = ownStatusEntry(raw, this.urls) ?? (await this.earlierBaseEntry(raw, issuer));
      } catch {
        return failure(
          'status_unavailable',
          'The status list cannot be read now (the database is unavailable)',
        );
      }
      if (!entry) {
        const url = (raw as { statusListCredential?: unknown } | null)?.statusListCredential;
        return failure(
          'status_unavailable',
          typeof url === 'string'
            ? `The status list ${url.slice(0, 200)} is not one of this service's (other lists are not fetched)`
            : 'The credential has a status entry that is no BitstringStatusListEntry of this service',
        );
      }
      if (entry.statusPurpose !== REVOCATION) {
        return failure(
          'status_unavailable',
          'The status entry has a purpose other than revocation',
        );
      }
      let stored;
      try {
        stored = await this.store.entry(entry.listId, entry.index);
      } catch {
        return failure(
          'status_unavailable',
          `The status list ${entry.listUrl} cannot be read now (the database is unavailable)`,
        );
      }
      if (!stored) {
        return failure(
          'status_unavailable',
          `The status list ${entry.listUrl} has no entry ${entry.index}`,
        );
      }
      if (stored.revoked) return failure('revoked', 'The credential was revoked by its issuer');
    }
    return undefined;
  }

  /** An entry naming one of `issuer`'s lists under another public base URL; undefined if none. */
  private async earlierBaseEntry(
    raw: unknown,
    issuer: string,
  ): Promise<OwnStatusEntry | undefined> {
    const entry = ownStatusEntry(raw, ANY_BASE_STATUS_LIST_URLS);
    if (!entry) return undefined;
    const list = await this.store.list(entry.listId);
    return list && canonicalDid(list.issuer) === canonicalDid(issuer) ? entry : undefined;
  }
}
