import { BadGatewayError, ServiceUnavailableError } from '@itp/errors';
import {
  oid4vpRequestObjectResultSchema,
  oid4vpVerifyResponseResultSchema,
  presentationVpVerifyResultSchema,
  revokeUserCredentialsResultSchema,
  verifyLoginVpResultSchema,
  type VerifyLoginVpResult,
} from '@itp/schemas';
import { InternalClient } from '@itp/service-kit';
import { z } from 'zod';
import type {
  CredentialRevocation,
  DidService,
  Oid4vpRequestObject,
  Oid4vpVerification,
  PresentationVpVerification,
} from './did-service.js';

/** `GET /internal/v1/sd-jwt-issuer/trust-anchors`'s answer. */
const trustAnchorsAnswerSchema = z.object({ certificates: z.array(z.string().min(1)) });

const TRUST_ANCHORS_PATH = '/internal/v1/sd-jwt-issuer/trust-anchors';
const DEFAULT_TIMEOUT_MS = 10_000;

export interface HttpDidServiceOptions {
  /** DID_SERVICE_INTERNAL_URL; undefined: not configured (every call 503). */
  baseUrl: string | undefined;
  /** INTERNAL_TOKEN_AUTH_TO_DID; undefined: not configured (every call 503). */
  internalApiToken: string | undefined;
  /** Longest wait for the OpenID4VP calls (the others wait InternalClient's default, 10 s). */
  oid4vpTimeoutMs?: number;
}

/** DidService over did-service's internal HTTP API. */
export class HttpDidService implements DidService {
  private readonly client: InternalClient | undefined;
  private readonly oid4vpClient: InternalClient | undefined;

  constructor(private readonly options: HttpDidServiceOptions) {
    const { baseUrl, internalApiToken: token } = options;
    const client = (timeoutMs?: number) =>
      baseUrl && token
        ? new InternalClient({ baseUrl, token, service: 'did-service', timeoutMs })
        : undefined;
    this.client = client();
    this.oid4vpClient = client(options.oid4vpTimeoutMs);
  }

  async verifyLoginVp(vp: unknown, maxAgeSeconds: number): Promise<VerifyLoginVpResult> {
    const answer = await this.call(this.client, 'Login with a VP', '/internal/v1/verify-login-vp', {
      vp,
      maxAgeSeconds,
    });
    const parsed = verifyLoginVpResultSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('verify-login-vp');
    return parsed.data;
  }

  async oid4vpRequestObject(input: {
    state: string;
    nonce: string;
    responseUri: string;
    expiresInSeconds?: number;
  }): Promise<Oid4vpRequestObject> {
    const answer = await this.call(
      this.oid4vpClient,
      'OpenID4VP',
      '/internal/v1/oid4vp/request-object',
      input,
    );
    const parsed = oid4vpRequestObjectResultSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('oid4vp/request-object');
    return parsed.data;
  }

  async oid4vpVerifyResponse(input: {
    vpToken: string;
    nonce: string;
    clientId: string;
  }): Promise<Oid4vpVerification> {
    const answer = await this.call(
      this.oid4vpClient,
      'OpenID4VP',
      '/internal/v1/oid4vp/verify-response',
      input,
    );
    // Any refusal is a refusal, also one whose code this version does not know yet (a newer
    // did-service during a rolling upgrade); only its shape matters here.
    const refused = refusalOf(answer);
    if (refused) return refused;
    const parsed = oid4vpVerifyResponseResultSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('oid4vp/verify-response');
    return parsed.data;
  }

  async verifyPresentationVp(input: {
    vp: string;
    nonce: string;
    clientId: string;
  }): Promise<PresentationVpVerification> {
    const answer = await this.call(
      this.oid4vpClient,
      'Presentation requests (jwt_vc_json)',
      '/internal/v1/presentation-requests/verify-vp',
      input,
    );
    // As oid4vp/verify-response: any refusal is a refusal, whatever its code.
    const refused = refusalOf(answer);
    if (refused?.verified === false) return refused;
    const parsed = presentationVpVerifyResultSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('presentation-requests/verify-vp');
    return parsed.data;
  }

  async revokeCredentials(revocation: CredentialRevocation): Promise<number> {
    const answer = await this.call(
      this.client,
      'Credential revocation',
      '/internal/v1/users/revoke-credentials',
      revocation,
    );
    const parsed = revokeUserCredentialsResultSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('revoke-credentials');
    return parsed.data.revoked;
  }

  /** Whether DID_SERVICE_INTERNAL_URL and INTERNAL_TOKEN_AUTH_TO_DID are set. */
  get configured(): boolean {
    return this.client !== undefined;
  }

  async sdJwtIssuerTrustAnchors(): Promise<string[]> {
    const { baseUrl, internalApiToken: token } = this.options;
    if (!baseUrl || !token) {
      throw new ServiceUnavailableError(
        'did-service is not configured (DID_SERVICE_INTERNAL_URL, INTERNAL_TOKEN_AUTH_TO_DID)',
      );
    }
    // A GET (InternalClient posts only): the same bearer, timeout and error mapping.
    let res: Response;
    try {
      res = await fetch(new URL(TRUST_ANCHORS_PATH, baseUrl), {
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ServiceUnavailableError('did-service is unavailable', { cause: err });
    }
    if (res.status === 503 || res.status === 504) {
      await res.body?.cancel();
      throw new ServiceUnavailableError(`did-service is unavailable (${res.status})`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new BadGatewayError(`did-service failed sd-jwt-issuer/trust-anchors (${res.status})`);
    }
    let answer: unknown;
    try {
      answer = await res.json();
    } catch {
      throw unexpected('sd-jwt-issuer/trust-anchors');
    }
    const parsed = trustAnchorsAnswerSchema.safeParse(answer);
    if (!parsed.success) throw unexpected('sd-jwt-issuer/trust-anchors');
    return parsed.data.certificates;
  }

  private async call(
    client: InternalClient | undefined,
    feature: string,
    path: string,
    body: unknown,
  ): Promise<unknown> {
    if (!client) {
      throw new ServiceUnavailableError(
        `${feature} is not configured (DID_SERVICE_INTERNAL_URL, INTERNAL_TOKEN_AUTH_TO_DID)`,
      );
    }
    return client.post(path, body);
  }
}

function unexpected(call: string): BadGatewayError {
  return new BadGatewayError(`did-service answered ${call} with an unexpected body`);
}

function refusalOf(answer: unknown): Oid4vpVerification | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { verified, error } = answer as { verified?: unknown; error?: unknown };
  if (verified !== false || typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return { verified: false, error: { code, message } };
}
