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

/**
 * did-service's OpenID4VP verifier (its internal `/internal/v1/oid4vp/*`): it signs the request
 * objects with a verifier DID's key and checks the wallets' answers (OpenID4VP 1.0 §8.6, §14).
 * Both reject with ServiceUnavailableError (503) when did-service cannot answer or is not
 * configured, BadGatewayError for an answer of an unexpected shape.
 */
export interface Oid4vpVerifier {
  requestObject(input: {
    state: string;
    nonce: string;
    responseUri: string;
    expiresInSeconds?: number;
  }): Promise<Oid4vpRequestObject>;
  verifyResponse(input: {
    vpToken: string;
    nonce: string;
    clientId: string;
  }): Promise<Oid4vpVerification>;
}
