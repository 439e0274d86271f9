import { isBaseError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import { trustAnchorsFrom, type TrustAnchors, type X509Certificate } from '@itp/x509';
import type { DidService } from './did-service.js';

export interface OwnIssuerAnchorsOptions {
  /** How often the anchors are fetched again while did-service answers (default 5 min). */
  refreshIntervalMs?: number;
  /**
   * The least time between two fetches asked for by a presentation whose chain is not trusted
   * yet (default 1 min): an unknown issuer cannot make auth-service call did-service more often.
   */
  onDemandIntervalMs?: number;
  /**
   * How soon a failed fetch is tried again (default 1 s; did-service may start after us), doubled
   * after each further failure up to onDemandIntervalMs.
   */
  retryIntervalMs?: number;
  clock?: () => number;
}

const DEFAULT_REFRESH_MS = 5 * 60_000;
const DEFAULT_ON_DEMAND_MS = 60_000;
const DEFAULT_RETRY_MS = 1_000;

const fingerprint = (anchors: TrustAnchors): string =>
  anchors.certificates
    .map((c) => Buffer.from(c.rawData).toString('base64'))
    .sort()
    .join(',');

function joinCertificates(...sources: TrustAnchors[]): readonly X509Certificate[] {
  const seen = new Set<string>();
  return sources
    .flatMap((source) => source.certificates)
    .filter((certificate) => {
      const der = Buffer.from(certificate.rawData).toString('base64');
      if (seen.has(der)) return false;
      seen.add(der);
      return true;
    });
}

/**
 * The root certificates of this service's own SD-JWT issuers (docs/api.md §14: always trusted),
 * as did-service tells them (`GET /internal/v1/sd-jwt-issuer/trust-anchors`): fetched at start,
 * again every 5 minutes, and when a presentation's chain is not trusted yet (`refreshIfDue`, at
 * most once a minute). A failed fetch never fails anything: it is logged (once per outage), the
 * last known anchors stay, and it is tried again soon.
 */
export class OwnIssuerAnchors {
  private current: TrustAnchors = { certificates: [] };
  private lastSuccessAt = Number.NEGATIVE_INFINITY;
  private lastFailureAt = Number.NEGATIVE_INFINITY;
  private failing = false;
  /** Failures since the last success: the retry delay doubles with each. */
  private failures = 0;
  private inFlight: Promise<boolean> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly clock: () => number;

  constructor(
    private readonly source: Pick<DidService, 'sdJwtIssuerTrustAnchors'>,
    private readonly logger: Logger,
    private readonly options: OwnIssuerAnchorsOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** The own issuers' roots as last fetched. */
  get anchors(): TrustAnchors {
    return this.current;
  }

  /**
   * `configured` and the own issuers' roots, each certificate once; read at each verification,
   * so that a refresh takes effect at once.
   */
  joinedWith(configured: TrustAnchors): TrustAnchors {
    const own = () => this.current;
    let joinedFor: TrustAnchors | undefined;
    let joined: readonly X509Certificate[] = configured.certificates;
    return {
      get certificates() {
        const current = own();
        if (joinedFor !== current) {
          joinedFor = current;
          joined = joinCertificates(configured, current);
        }
        return joined;
      },
    };
  }

  /** Fetches now and keeps fetching (every refreshIntervalMs; after a failure, retryDelay()). */
  start(): void {
    this.stopped = false;
    void this.refresh().then((ok) => this.schedule(ok));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * A presentation's chain is not trusted: fetch again unless a fetch succeeded less than
   * onDemandIntervalMs ago or failed less than retryDelay() ago — before the first success (a
   * stack whose did-service starts after auth-service), less than retryIntervalMs ago. True when
   * the anchors changed.
   */
  async refreshIfDue(): Promise<boolean> {
    const now = this.clock();
    const neverFetched = this.lastSuccessAt === Number.NEGATIVE_INFINITY;
    const wait = neverFetched
      ? (this.options.retryIntervalMs ?? DEFAULT_RETRY_MS)
      : this.retryDelay();
    const due =
      now - this.lastSuccessAt >= (this.options.onDemandIntervalMs ?? DEFAULT_ON_DEMAND_MS) &&
      now - this.lastFailureAt >= wait;
    if (!due && !this.inFlight) return false;
    const before = fingerprint(this.current);
    await this.refresh();
    return fingerprint(this.current) !== before;
  }

  /** One fetch (joined with one already under way); true when it succeeded. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchOnce(): Promise<boolean> {
    try {
      const pems = await this.source.sdJwtIssuerTrustAnchors();
      const anchors = trustAnchorsFrom(pems);
      if (fingerprint(anchors) !== fingerprint(this.current)) {
        this.current = anchors;
        this.logger.info(
          { certificates: anchors.certificates.map((c) => c.subject) },
          "the own SD-JWT issuers' trust anchors changed",
        );
      }
      this.lastSuccessAt = this.clock();
      if (this.failing) this.logger.info("the own SD-JWT issuers' trust anchors are fetched again");
      this.failing = false;
      this.failures = 0;
      return true;
    } catch (err) {
      this.lastFailureAt = this.clock();
      if (!this.failing) {
        this.logger.warn(
          { err: isBaseError(err) ? err.message : err },
          "the own SD-JWT issuers' trust anchors could not be fetched from did-service: its credentials are not trusted until they are (retrying)",
        );
      }
      this.failing = true;
      this.failures += 1;
      return false;
    }
  }

  private schedule(lastOk: boolean): void {
    if (this.stopped) return;
    const delay = lastOk
      ? (this.options.refreshIntervalMs ?? DEFAULT_REFRESH_MS)
      : this.retryDelay();
    this.timer = setTimeout(() => {
      void this.refresh().then((ok) => this.schedule(ok));
    }, delay);
    this.timer.unref();
  }

  /** After n failures in a row: retryIntervalMs · 2^(n−1), at most onDemandIntervalMs. */
  private retryDelay(): number {
    const first = this.options.retryIntervalMs ?? DEFAULT_RETRY_MS;
    const most = this.options.onDemandIntervalMs ?? DEFAULT_ON_DEMAND_MS;
    return Math.min(first * 2 ** Math.max(0, this.failures - 1), Math.max(first, most));
  }
}
