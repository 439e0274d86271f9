import { BadGatewayError, ServiceUnavailableError } from '@itp/errors';
import { oid4vpRequestObjectResultSchema, oid4vpVerifyResponseResultSchema } from '@itp/schemas';
import { InternalClient } from '@itp/service-kit';
import type { Oid4vpRequestObject, Oid4vpVerification, Oid4vpVerifier } from './oid4vp-verifier.js';

export interface DidServiceOid4vpVerifierOptions {
  /** DID_SERVICE_INTERNAL_URL; undefined = OpenID4VP not configured (503). */
  baseUrl: string | undefined;
  internalApiToken: string | undefined;
  timeoutMs?: number;
}

/** Oid4vpVerifier over did-service's internal API (bearer INTERNAL_TOKEN_AUTH_TO_DID). */
export class DidServiceOid4vpVerifier implements Oid4vpVerifier {
  private readonly client: InternalClient | undefined;

  constructor(options: DidServiceOid4vpVerifierOptions) {
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

  async requestObject(input: {
    state: string;
    nonce: string;
    responseUri: string;
    expiresInSeconds?: number;
  }): Promise<Oid4vpRequestObject> {
    const answer = await this.call('/internal/v1/oid4vp/request-object', input);
    const parsed = oid4vpRequestObjectResultSchema.safeParse(answer);
    if (!parsed.success) {
      throw new BadGatewayError(
        'did-service answered oid4vp/request-object with an unexpected body',
      );
    }
    return parsed.data;
  }

  async verifyResponse(input: {
    vpToken: string;
    nonce: string;
    clientId: string;
  }): Promise<Oid4vpVerification> {
    const answer = await this.call('/internal/v1/oid4vp/verify-response', input);
    // Any refusal is a refusal, also one whose code this version does not know yet (a newer
    // did-service during a rolling upgrade); only its shape matters here.
    const refused = refusalOf(answer);
    if (refused) return refused;
    const parsed = oid4vpVerifyResponseResultSchema.safeParse(answer);
    if (!parsed.success) {
      throw new BadGatewayError(
        'did-service answered oid4vp/verify-response with an unexpected body',
      );
    }
    return parsed.data;
  }

  private call(path: string, body: unknown): Promise<unknown> {
    if (!this.client) {
      throw new ServiceUnavailableError(
        'OpenID4VP is not configured (DID_SERVICE_INTERNAL_URL, INTERNAL_TOKEN_AUTH_TO_DID)',
      );
    }
    return this.client.post(path, body);
  }
}

function refusalOf(answer: unknown): Oid4vpVerification | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { verified, error } = answer as { verified?: unknown; error?: unknown };
  if (verified !== false || typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return { verified: false, error: { code, message } };
}
