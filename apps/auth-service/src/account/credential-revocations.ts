import type { Logger } from '@itp/service-kit';
import type { CredentialRevocation, DidService } from '../did-service/did-service.js';

export type { CredentialRevocation } from '../did-service/did-service.js';

/**
 * The outbox of revocations (SQL: auth_credential_revocations). A reset writes to it; a running
 * auth-service delivers it to did-service until acknowledged, so a did-service that is down at
 * the moment of the reset still revokes the credentials when it is back.
 */
export interface CredentialRevocationOutbox {
  /** Asks for the revocation (a later one for the same user moves `issuedBefore` forward). */
  request(revocation: CredentialRevocation, now: number): Promise<void>;
  /** Revocations not yet acknowledged, oldest first. */
  pending(limit: number): Promise<CredentialRevocation[]>;
  /** Marks `revocation` delivered (unless a newer one for the user was asked for meanwhile). */
  delivered(revocation: CredentialRevocation, now: number): Promise<void>;
}

export interface CredentialRevocationDeliveryOptions {
  /** How often pending revocations are delivered. */
  intervalMs: number;
  /** Most revocations delivered per round. */
  batch?: number;
  clock?: () => number;
}

/**
 * Delivers the outbox to did-service: at start, then every `intervalMs`. Each replica delivers;
 * did-service's revocation is idempotent, so two replicas delivering the same row cost nothing.
 * A failure is logged and retried the next round.
 */
export class CredentialRevocationDelivery {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private readonly clock: () => number;

  constructor(
    private readonly outbox: CredentialRevocationOutbox,
    /** did-service's `users/revoke-credentials`. */
    private readonly didService: Pick<DidService, 'revokeCredentials'>,
    private readonly logger: Logger,
    private readonly options: CredentialRevocationDeliveryOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** One round: delivers what is pending; resolves to how many were acknowledged. */
  deliverPending(): Promise<number> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    void this.deliverPending();
    this.timer = setInterval(() => void this.deliverPending(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async round(): Promise<number> {
    let pending: CredentialRevocation[];
    try {
      pending = await this.outbox.pending(this.options.batch ?? 50);
    } catch (err) {
      this.logger.warn({ err }, 'credential revocations: the outbox cannot be read');
      return 0;
    }
    let acknowledged = 0;
    for (const revocation of pending) {
      try {
        const revoked = await this.didService.revokeCredentials(revocation);
        await this.outbox.delivered(revocation, this.clock());
        acknowledged += 1;
        this.logger.info(
          { userId: revocation.userId, issuedBefore: revocation.issuedBefore, revoked },
          'credentials of a reset account revoked',
        );
      } catch (err) {
        this.logger.warn(
          { err, userId: revocation.userId },
          'credential revocation not delivered to did-service (retried)',
        );
      }
    }
    return acknowledged;
  }
}
