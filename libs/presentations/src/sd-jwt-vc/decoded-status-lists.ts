import { inflateSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** How many status lists (by URI) a DecodedStatusLists keeps by default. */
export const DEFAULT_STATUS_LISTS = 64;
/** The most bytes a status list may inflate to (2^27 one-bit entries); a larger one is refused. */
export const MAX_STATUS_LIST_BYTES = 16 * 1024 * 1024;

interface DecodedList {
  /** The status list token it was decoded from, exactly as fetched. */
  token: string;
  bits: 1 | 2 | 4 | 8;
  bytes: Uint8Array;
}

/**
 * The `status_list` of a status list token (draft-ietf-oauth-status-list §4): `lst` (base64url of
 * the ZLIB-deflated byte array) inflated, with its `bits` per status. Throws for anything else.
 */
export function decodeStatusList(token: string, payload: Record<string, unknown>): DecodedList {
  const list = payload.status_list as { bits?: unknown; lst?: unknown } | undefined;
  const bits = list?.bits;
  if (bits !== 1 && bits !== 2 && bits !== 4 && bits !== 8) {
    throw new Error('status_list.bits is not 1, 2, 4 or 8');
  }
  if (typeof list?.lst !== 'string' || !/^[A-Za-z0-9_-]+$/.test(list.lst)) {
    throw new Error('status_list.lst is not base64url');
  }
  const bytes = inflateSync(Buffer.from(list.lst, 'base64url'), {
    maxOutputLength: MAX_STATUS_LIST_BYTES,
  });
  return { token, bits, bytes };
}

/**
 * The status at `index` (§4.1: status 0 in the least significant bits of byte 0; the order of
 * @sd-jwt/jwt-status-list's StatusList). Throws when the list has no such entry.
 */
export function statusAt(list: Pick<DecodedList, 'bits' | 'bytes'>, index: number): number {
  const perByte = 8 / list.bits;
  if (!Number.isSafeInteger(index) || index < 0 || index >= list.bytes.length * perByte) {
    throw new Error(`index ${index} is outside the list (${list.bytes.length * perByte} entries)`);
  }
  const byte = list.bytes[Math.floor(index / perByte)] as number;
  return (byte >> ((index % perByte) * list.bits)) & ((1 << list.bits) - 1);
}

/**
 * Decoded status lists kept per list URI (ADR 0039), each beside the exact token it came from:
 * a presentation whose freshly fetched token is the same text reads its bit without inflating the
 * list again; another token (a new revision, a new window) is decoded and replaces it. The token
 * is still fetched and its signature, `sub` and `exp` checked for every presentation: only the
 * decoding is remembered, so a revocation is seen as soon as the issuer serves it. Bounded: the
 * least recently used list is dropped past `maxLists`.
 */
export class DecodedStatusLists {
  private readonly lists: LRUCache<string, DecodedList>;
  private decoded = 0;

  constructor(maxLists = DEFAULT_STATUS_LISTS) {
    this.lists = new LRUCache({ max: maxLists });
  }

  /** How many tokens were inflated (specs, bench). */
  get decodings(): number {
    return this.decoded;
  }

  /** The status of `index` in `token` (a verified status list token of `uri`). */
  statusOf(uri: string, token: string, payload: Record<string, unknown>, index: number): number {
    let list = this.lists.get(uri);
    if (list?.token !== token) {
      list = decodeStatusList(token, payload);
      this.decoded += 1;
      this.lists.set(uri, list);
    }
    return statusAt(list, index);
  }
}
