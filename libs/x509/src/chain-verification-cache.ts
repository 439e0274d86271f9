import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TrustAnchors } from './trust-anchors.js';
import { verifyCertificateChain, type VerifiedChain } from './verify-certificate-chain.js';

/** How many accepted chains a cache keeps by default (issuers × their certificate renewals). */
export const DEFAULT_CHAIN_CACHE_ENTRIES = 256;

type Chain = readonly (string | Uint8Array)[];

/**
 * verifyCertificateChain with its successes remembered (ADR 0039): an x5c chain accepted against
 * a set of trust anchors is accepted again without its signature checks while `now` is within
 * the validity window of every certificate of its path (the anchor included). Keyed by the
 * chain's exact bytes (SHA-256 of each entry as given: base64 text or DER) and the anchor set's
 * fingerprint (SHA-256 of its DER certificates, sorted): a tampered or other chain, or another
 * anchor set, is verified in full. A refusal is never remembered. When the anchor set changes
 * (a refresh, a removed anchor), everything verified against the previous set is forgotten.
 * Bounded: the least recently used entry is dropped past `maxEntries`.
 */
export class ChainVerificationCache {
  private readonly entries: LRUCache<string, VerifiedChain>;
  private readonly anchorPrints = new WeakMap<object, string>();
  private anchorsPrint: string | undefined;
  private misses = 0;

  constructor(
    maxEntries = DEFAULT_CHAIN_CACHE_ENTRIES,
    private readonly verify: typeof verifyCertificateChain = verifyCertificateChain,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** How many chains this cache verified in full (specs, bench). */
  get verifications(): number {
    return this.misses;
  }

  get size(): number {
    return this.entries.size;
  }

  async verifyCertificateChain(
    x5c: Chain,
    anchors: TrustAnchors,
    now: Date = new Date(),
  ): Promise<VerifiedChain> {
    const anchorsPrint = this.fingerprintOf(anchors);
    if (anchorsPrint !== this.anchorsPrint) {
      this.entries.clear();
      this.anchorsPrint = anchorsPrint;
    }
    const key = chainKey(x5c);
    const kept = this.entries.get(key);
    if (kept && now >= kept.validFrom && now <= kept.validUntil) return kept;
    if (kept) this.entries.delete(key);
    this.misses += 1;
    const verified = await this.verify(x5c, anchors, now);
    // The anchors may have changed while the chain was verified: keep it only for the set it was.
    if (this.fingerprintOf(anchors) === anchorsPrint && this.anchorsPrint === anchorsPrint) {
      this.entries.set(key, verified);
    }
    return verified;
  }

  /** The anchor set's fingerprint, computed once per certificates array. */
  private fingerprintOf(anchors: TrustAnchors): string {
    const certificates = anchors.certificates;
    let print = this.anchorPrints.get(certificates);
    if (print === undefined) {
      const ders = certificates.map((c) => Buffer.from(c.rawData).toString('base64')).sort();
      print = createHash('sha256').update(ders.join(',')).digest('base64url');
      this.anchorPrints.set(certificates, print);
    }
    return print;
  }
}

/** SHA-256 over each entry, typed and length-prefixed: no two different chains share a key. */
function chainKey(x5c: Chain): string {
  const hash = createHash('sha256');
  for (const entry of x5c) {
    const bytes = typeof entry === 'string' ? Buffer.from(entry, 'utf8') : entry;
    hash.update(`${typeof entry === 'string' ? 's' : 'b'}${bytes.byteLength}:`);
    hash.update(bytes);
  }
  return hash.digest('base64url');
}
