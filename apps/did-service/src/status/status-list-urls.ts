import { randomBytes } from 'node:crypto';

/** The path of the status lists under the public base URL. */
export const STATUS_LISTS_PATH = '/v2/did/status-lists';

/** A list id: 16 random bytes, base64url (22 characters). */
const LIST_ID = /^[A-Za-z0-9_-]{22}$/;

export function newStatusListId(): string {
  return randomBytes(16).toString('base64url');
}

export function isStatusListId(value: string): boolean {
  return LIST_ID.test(value);
}

/**
 * The URLs of this service's status lists, `<public base>/v2/did/status-lists/<listId>`: what
 * issued VCs name as `statusListCredential`, and how a URL is recognised as one of ours.
 */
export class StatusListUrls {
  readonly prefix: string;

  /** `publicUrl`: PUBLIC_URL (the gateway's address), without a trailing slash. */
  constructor(publicUrl: string) {
    this.prefix = `${publicUrl.replace(/\/+$/, '')}${STATUS_LISTS_PATH}/`;
  }

  listUrl(listId: string): string {
    return `${this.prefix}${listId}`;
  }

  /** The list id of one of our list URLs; undefined for any other URL. */
  listIdOf(url: string): string | undefined {
    if (!url.startsWith(this.prefix)) return undefined;
    const listId = url.slice(this.prefix.length);
    return isStatusListId(listId) ? listId : undefined;
  }
}

/**
 * Recognises a list URL of this service under any public base: the operator CLI, which revokes
 * VCs issued under an earlier PUBLIC_URL too (safe there: a list only counts when its issuer
 * signed the VC that names it).
 */
export const ANY_BASE_STATUS_LIST_URLS: Pick<StatusListUrls, 'listIdOf'> = {
  listIdOf(url: string): string | undefined {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
    const at = path.lastIndexOf(`${STATUS_LISTS_PATH}/`);
    if (at < 0) return undefined;
    const listId = path.slice(at + STATUS_LISTS_PATH.length + 1);
    return isStatusListId(listId) ? listId : undefined;
  },
};
