import { randomBytes } from 'node:crypto';
import type { KvStore } from '@itp/stores';

/** How long one DPoP nonce is handed out (ms); it is accepted for one period more. */
export const DPOP_NONCE_PERIOD_MS = 60_000;

/**
 * The server's DPoP nonces (RFC 9449 §8) of the OpenID4VCI token and credential endpoints, shared
 * by every replica through the KvStore: one random nonce per period of DPOP_NONCE_PERIOD_MS (the
 * first replica to need it sets it, SET NX; the others read that one), accepted during its period
 * and the next. So a nonce lives 1–2 periods, an anonymous caller cannot make the store grow, and
 * a Redis that lost it just hands out a new one (proofs with the old one get `use_dpop_nonce` and
 * are retried by the wallet).
 */
export class DpopNonces {
  constructor(
    private readonly kv: KvStore,
    private readonly now: () => number,
  ) {}

  /** The nonce to hand out now (the `DPoP-Nonce` header). */
  async current(): Promise<string> {
    return this.ofPeriod(this.period(), true) as Promise<string>;
  }

  /** Whether `nonce` is the nonce of this period or the one before. */
  async accepts(nonce: unknown): Promise<boolean> {
    if (typeof nonce !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return false;
    const period = this.period();
    for (const p of [period, period - 1]) {
      if ((await this.ofPeriod(p, false)) === nonce) return true;
    }
    return false;
  }

  private period(): number {
    return Math.floor(this.now() / DPOP_NONCE_PERIOD_MS);
  }

  private async ofPeriod(period: number, create: boolean): Promise<string | undefined> {
    const key = `oid4vci:dpop-nonce:${period}`;
    const known = await this.kv.get(key);
    if (known !== null || !create) return known ?? undefined;
    const fresh = randomBytes(16).toString('base64url');
    // Kept until it is no longer accepted (the next period's end), plus a margin for clock skew.
    await this.kv.set(key, fresh, { ttlMs: 3 * DPOP_NONCE_PERIOD_MS, onlyIfAbsent: true });
    return (await this.kv.get(key)) ?? fresh;
  }
}
