import { z } from 'zod';
import { BadGatewayError, ServiceUnavailableError } from '@itp/errors';
import { InternalClient } from '@itp/service-kit';
import type { Oid4vpRequestObject, Oid4vpVerification, Oid4vpVerifier } from './oid4vp-verifier.js';

export interface DidServiceOid4vpVerifierOptions {
  /** DID_SERVICE_INTERNAL_URL; undefined = OpenID4VP not configured (503). */
  baseUrl: string | undefined;
  internalApiToken: string | undefined;
  timeoutMs?: number;
}

// The shapes auth-service relies on in did-service's answers (the rest is ignored).
const requestObjectAnswer = z.object({
  clientId: z.string().startsWith('decentralized_identifier:did:'),
  requestObject: z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
});
const verifyResponseAnswer = z.union([
  z.object({ verified: z.literal(true), userId: z.string().min(1), holder: z.string().min(1) }),
  z.object({
    verified: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);

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
    const parsed = requestObjectAnswer.safeParse(answer);
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
    const parsed = verifyResponseAnswer.safeParse(answer);
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
