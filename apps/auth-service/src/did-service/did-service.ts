import type { VerifyLoginVpResult } from '@itp/schemas';

/** What did-service answers for a new authorization request (its signed request object). */
export interface Oid4vpRequestObject {
  /** `decentralized_identifier:<verifier DID>`: the client id of the request. */
  clientId: string;
  /** The request object, a compact JWT (`typ` `oauth-authz-req+jwt`). */
  requestObject: string;
}

/** did-service's judgement of a wallet's `vp_token`. */
export type Oid4vpVerification =
  | { verified: true; userId: string; holder: string; credentialIssuedAt?: number }
  | { verified: false; error: { code: string; message: string } };

/** did-service's judgement of one `jwt_vc_json` VP of a presentation request (contract §14). */
export type PresentationVpVerification =
  | {
      verified: true;
      holder: string;
      /** Each VC inside: its issuer DID, `type` and `credentialSubject`. */
      credentials: { issuer: string; type: string[]; credentialSubject: Record<string, unknown> }[];
    }
  | { verified: false; error: { code: string; message: string } };

/** One revocation a reset asked for: every credential of `userId` issued before `issuedBefore`. */
export interface CredentialRevocation {
  userId: string;
  /** Unix seconds. */
  issuedBefore: number;
}

/**
 * auth-service's one port to did-service (its internal API, bearer INTERNAL_TOKEN_AUTH_TO_DID).
 * Each feature takes the part it needs (`Pick<DidService, …>`). Every call rejects with
 * ServiceUnavailableError (503) when did-service cannot answer or is not configured, and with
 * BadGatewayError (502) for an answer of an unexpected shape.
 */
export interface DidService {
  /**
   * VP login's check (POST /internal/v1/verify-login-vp), the one implementation of the VP rules
   * of docs/api.md §2: the VP's user, holder, verifier, id and freshness; rejects with
   * UnauthorizedError (the VP is refused, message says why) or BadRequestError (no VP).
   */
  verifyLoginVp(vp: unknown, maxAgeSeconds: number): Promise<VerifyLoginVpResult>;
  /**
   * OpenID4VP (`/internal/v1/oid4vp/request-object`): a request object signed with a verifier
   * DID's key (OpenID4VP 1.0 §5).
   */
  oid4vpRequestObject(input: {
    state: string;
    nonce: string;
    responseUri: string;
    expiresInSeconds?: number;
  }): Promise<Oid4vpRequestObject>;
  /** OpenID4VP (`/internal/v1/oid4vp/verify-response`): a wallet's answer checked (§8.6, §14). */
  oid4vpVerifyResponse(input: {
    vpToken: string;
    nonce: string;
    clientId: string;
  }): Promise<Oid4vpVerification>;
  /**
   * Presentation requests (`/internal/v1/presentation-requests/verify-vp`): one `jwt_vc_json` VP
   * JWT of a wallet's answer, checked for `clientId` and `nonce` (contract §14); a refusal is
   * `verified: false` with did-service's reason.
   */
  verifyPresentationVp(input: {
    vp: string;
    nonce: string;
    clientId: string;
  }): Promise<PresentationVpVerification>;
  /** A reset's revocation (`/internal/v1/users/revoke-credentials`): how many were revoked. */
  revokeCredentials(revocation: CredentialRevocation): Promise<number>;
  /**
   * The root certificates (PEM) of did-service's own SD-JWT issuer chains
   * (`GET /internal/v1/sd-jwt-issuer/trust-anchors`): the dev CA in development, none when SD-JWT
   * issuance is off. The verifier always trusts them (docs/api.md §14: own issuers).
   */
  sdJwtIssuerTrustAnchors(): Promise<string[]>;
}
