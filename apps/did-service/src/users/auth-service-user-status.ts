import type { AccountEpoch } from '@itp/auth-jwt';
import { BadGatewayError } from '@itp/errors';
import { userStatusResponseSchema } from '@itp/schemas';
import { InternalClient } from '@itp/service-kit';
import type { UserStatusPort } from './user-status-port.js';

export interface AuthServiceUserStatusOptions {
  /** Base URL of auth-service, e.g. http://auth-service:8081 */
  baseUrl: string;
  internalApiToken: string;
  timeoutMs?: number;
}

/** UserStatusPort over auth-service's internal `POST /internal/v1/users/status`. */
export class AuthServiceUserStatus implements UserStatusPort {
  private readonly client: InternalClient;

  constructor(options: AuthServiceUserStatusOptions) {
    this.client = new InternalClient({
      baseUrl: options.baseUrl,
      token: options.internalApiToken,
      service: 'auth-service',
      timeoutMs: options.timeoutMs ?? 5_000,
    });
  }

  async epochOf(userId: string): Promise<AccountEpoch> {
    const answer = await this.client.post('/internal/v1/users/status', { userId });
    const parsed = userStatusResponseSchema.safeParse(answer);
    if (!parsed.success || parsed.data.userId !== userId) {
      throw new BadGatewayError('auth-service answered users/status with an unexpected body');
    }
    // An older auth-service sends no tokensValidAfter: the schema's default 0 (nothing ended).
    return { active: parsed.data.active, tokensValidAfter: parsed.data.tokensValidAfter };
  }
}
