import type { DcqlQuery } from 'dcql';
import type { SupportedFormat } from './site-dcql-query.js';

/** One verified credential as the site gets it: only the claims its DCQL query asked for. */
export interface PresentedCredential {
  format: SupportedFormat;
  /** The issuer as its verified certificate names it (SD-JWT VC `iss`, mdoc: the signer). */
  issuer: string;
  claims: Record<string, unknown>;
  status: 'valid';
}

/** What the site's result call answers once the wallet answered (contract §14). */
export type PresentationOutcome =
  | { status: 'verified'; credentials: Record<string, PresentedCredential[]> }
  | { status: 'declined'; error: string }
  | { status: 'refused'; error: 'access_denied'; rule: string };

/**
 * One presentation request, stored as JSON under `presentation-request:<id>` until it expires
 * (plus a grace for the site to collect its outcome).
 *
 * pending → (the wallet fetched the request object: `fetched`) → answering (a response claimed
 * it) → done (its outcome) → collected (the site read it once).
 */
export interface PresentationRequest {
  /** The site (relying-party client id) that made it: nobody else learns of it. */
  clientId: string;
  dcqlQuery: DcqlQuery.Output;
  purpose?: string;
  state: string;
  nonce: string;
  /** The ephemeral ECDH-ES P-256 private JWK the response is encrypted to, sealed (AES-GCM). */
  sealedEncryptionKey: string;
  /** Its public JWK (with kid, use enc, alg ECDH-ES), as the request object names it. */
  encryptionJwk: Record<string, unknown>;
  fetched: boolean;
  status: 'pending' | 'answering' | 'done' | 'collected';
  outcome?: PresentationOutcome;
  /** Epoch ms: no request object and no response after it. */
  expiresAt: number;
}
