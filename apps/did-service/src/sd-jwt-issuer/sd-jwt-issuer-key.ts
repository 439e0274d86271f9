import type { JWK } from 'jose';

/**
 * The P-256 key that signs SD-JWT VCs and their IETF token status lists (contract §15, HAIP), with
 * its certificate chain. Its private part never leaves the object: callers ask it to sign.
 */
export interface SdJwtIssuerKey {
  /** ES256 over a JWS signing input (`<header>.<payload>`): the raw r‖s signature, base64url. */
  sign(signingInput: string): Promise<string>;
  /** The chain for the JWS `x5c` header: leaf first, each certificate base64 (not url) DER. */
  x5c: string[];
  /** The public key (kty EC, crv P-256, x, y): no `d`. */
  publicJwk: JWK;
  /** The issuer's `did:web` (`did:web:<PUBLIC_URL host, a port as %3A>`), naming this key. */
  did: string;
  /** Its verification method in the did:web document: `<did>#<RFC 7638 thumbprint of publicJwk>`. */
  kid: string;
}

/** Where issuance and the status lists read the current SD-JWT issuer key. */
export interface SdJwtIssuerKeys {
  /** The key that signs now (after a rotation or a certificate renewal: the new one). */
  current(): Promise<SdJwtIssuerKey>;
  /**
   * The certificates a verifier trusts for this issuer (PEM): the root of the chain (the dev CA in
   * development). auth-service's verifier always trusts them (contract §14: own issuers).
   */
  trustAnchorsPem(): Promise<string[]>;
}
