import { BadGatewayError, ServiceUnavailableError } from '@itp/errors';
import { verifyLoginVpResultSchema, type VerifyLoginVpResult } from '@itp/schemas';
import { InternalClient } from '@itp/service-kit';
import type { LoginVpVerifier } from './login-vp-verifier.js';

export interface DidServiceLoginVpVerifierOptions {
  /** DID_SERVICE_INTERNAL_URL; undefined = VP login not configured (503). */
  baseUrl: string | undefined;
  internalApiToken: string | undefined;
  timeoutMs?: number;
}

/** LoginVpVerifier over did-service's internal API (bearer INTERNAL_TOKEN_AUTH_TO_DID). */
export class DidServiceLoginVpVerifier implements LoginVpVerifier {
  private readonly client: InternalClient | undefined;

  constructor(options: DidServiceLoginVpVerifierOptions) {
    this.client =
      options.baseUrl && options.internalApiToken
        ? new InternalClient({
            baseUrl: options.baseUrl,
            token: options.internalApiToken,
            service: 'did-service',
            timeoutMs: options.timeoutMs,
          })
        : undefined;
  }

  async verify(vp: unknown, maxAgeSeconds: number): Promise<VerifyLoginVpResult> {
    if (!this.client) {
      throw new ServiceUnavailableError(
        'Login with a VP is not configured (DID_SERVICE_INTERNAL_URL, INTERNAL_TOKEN_AUTH_TO_DID)',
      );
    }
    const answer = await this.client.post('/internal/v1/verify-login-vp', { vp, maxAgeSeconds });
    const parsed = verifyLoginVpResultSchema.safeParse(answer);
    if (!parsed.success)
      throw new BadGatewayError('did-service answered verify-login-vp with an unexpected body');
    return parsed.data;
  }
}
