import type { Logger } from '@itp/service-kit';
import type { DidWeb } from './did-web.js';
import type { IssuerKeyStore } from './issuer-key-store.js';
import { LocalSdJwtIssuerKey } from './local-sd-jwt-issuer-key.js';
import type { SdJwtIssuerKey, SdJwtIssuerKeys } from './sd-jwt-issuer-key.js';

/** How often `current()` may re-read the table: an import reaches running replicas within this. */
export const ISSUER_KEYS_REFRESH_MS = 60_000;
/** A leaf certificate expiring within this is warned about at start and at each change. */
const EXPIRY_WARNING_MS = 30 * 24 * 3600_000;

/** What the did:web document and the dev CA route read besides the port. */
export interface PublishedSdJwtIssuerKeys extends SdJwtIssuerKeys {
  /**
   * The keys the did:web document names: the current one first, then earlier imported keys whose
   * leaf certificate has not expired (credentials they signed still verify by `kid`).
   */
  published(): Promise<SdJwtIssuerKey[]>;
  /** The dev CA while the dev PKI's issuer leaf signs (development, nothing imported). */
  devCaPem(): Promise<string | undefined>;
}

/** The dev PKI's issuer (development without an imported key). */
export interface DevIssuer {
  key: LocalSdJwtIssuerKey;
  caPem: string;
}

interface KeysState {
  /** Newest import first; never empty. */
  keys: LocalSdJwtIssuerKey[];
  devCaPem?: string;
}

export interface StoredSdJwtIssuerKeysDeps {
  store: IssuerKeyStore;
  didWeb: DidWeb;
  /** Used while nothing is imported (development only). */
  dev?: DevIssuer | undefined;
  logger: Logger;
  now?: () => number;
  refreshMs?: number;
}

/**
 * The SD-JWT issuer keys of did_sd_jwt_issuer_keys (the newest import is current), or the dev
 * PKI's issuer leaf while nothing is imported in development. Read at start; `current()`,
 * `published()` and `trustAnchorsPem()` re-read the table at most every ISSUER_KEYS_REFRESH_MS,
 * so an import or a renewed certificate reaches every running replica within a minute without a
 * restart. A failed re-read keeps the keys read before (and logs a warning).
 */
export class StoredSdJwtIssuerKeys implements PublishedSdJwtIssuerKeys {
  private loadedAt: number;
  private reloading: Promise<void> | undefined;
  private readonly now: () => number;

  private constructor(
    private readonly deps: StoredSdJwtIssuerKeysDeps,
    private state: KeysState,
  ) {
    this.now = deps.now ?? Date.now;
    this.loadedAt = this.now();
    this.warnAbout(state.keys[0] as LocalSdJwtIssuerKey);
  }

  /** undefined when nothing is imported and there is no dev issuer (issuance off). */
  static async open(deps: StoredSdJwtIssuerKeysDeps): Promise<StoredSdJwtIssuerKeys | undefined> {
    const state = await readState(deps);
    return state ? new StoredSdJwtIssuerKeys(deps, state) : undefined;
  }

  async current(): Promise<SdJwtIssuerKey> {
    await this.fresh();
    return this.state.keys[0] as LocalSdJwtIssuerKey;
  }

  async published(): Promise<SdJwtIssuerKey[]> {
    await this.fresh();
    const now = this.now();
    return this.state.keys.filter(
      (key, index) => index === 0 || key.leaf().notAfter.getTime() > now,
    );
  }

  async trustAnchorsPem(): Promise<string[]> {
    const keys = (await this.published()) as LocalSdJwtIssuerKey[];
    return [...new Set(keys.map((key) => key.rootPem))];
  }

  async devCaPem(): Promise<string | undefined> {
    await this.fresh();
    return this.state.devCaPem;
  }

  private async fresh(): Promise<void> {
    const refreshMs = this.deps.refreshMs ?? ISSUER_KEYS_REFRESH_MS;
    if (this.now() - this.loadedAt < refreshMs) return;
    this.reloading ??= this.reload().finally(() => {
      this.reloading = undefined;
    });
    await this.reloading;
  }

  private async reload(): Promise<void> {
    try {
      const state = await readState(this.deps);
      if (state) {
        const before = this.state.keys[0] as LocalSdJwtIssuerKey;
        const after = state.keys[0] as LocalSdJwtIssuerKey;
        this.state = state;
        if (before.thumbprint !== after.thumbprint || before.x5c[0] !== after.x5c[0]) {
          this.deps.logger.info(
            { kid: after.kid, previousKid: before.kid },
            'SD-JWT VC issuer: a newly imported key or certificate is in use',
          );
          this.warnAbout(after);
        }
      }
    } catch (err) {
      this.deps.logger.warn(
        { reason: err instanceof Error ? err.message : String(err) },
        'SD-JWT VC issuer: the issuer keys could not be re-read; the ones read before stay in use',
      );
    }
    this.loadedAt = this.now();
  }

  /** Warnings about the current key's certificate: SAN not PUBLIC_URL's host, (nearly) expired. */
  private warnAbout(key: LocalSdJwtIssuerKey): void {
    const info = key.info();
    const { logger, didWeb } = this.deps;
    if (!info.dnsNames.includes(didWeb.host)) {
      logger.warn(
        { kid: info.kid, dnsNames: info.dnsNames, host: didWeb.host },
        "SD-JWT VC issuer: the leaf certificate's SAN does not name PUBLIC_URL's host; wallets that check the iss against the x5c leaf refuse the credentials (import a certificate for this host: docs/operations.md)",
      );
    }
    const left = info.notAfter.getTime() - this.now();
    if (left < EXPIRY_WARNING_MS) {
      logger.warn(
        { kid: info.kid, notAfter: info.notAfter.toISOString() },
        left < 0
          ? 'SD-JWT VC issuer: the leaf certificate has expired; renew it (sd-jwt-issuer renew-certificate)'
          : 'SD-JWT VC issuer: the leaf certificate expires within 30 days; renew it (sd-jwt-issuer renew-certificate)',
      );
    }
  }
}

async function readState(deps: StoredSdJwtIssuerKeysDeps): Promise<KeysState | undefined> {
  const rows = await deps.store.list();
  if (rows.length > 0) {
    const keys = await Promise.all(
      rows.map((row) =>
        LocalSdJwtIssuerKey.create({
          privateJwk: row.privateJwk,
          x5c: row.x5c,
          did: deps.didWeb.did,
          rootPem: row.rootPem,
        }),
      ),
    );
    return { keys };
  }
  if (deps.dev) return { keys: [deps.dev.key], devCaPem: deps.dev.caPem };
  return undefined;
}
