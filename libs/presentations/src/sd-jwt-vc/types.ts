import type { ChainVerificationCache, TrustAnchors } from '@itp/x509';
import type { DecodedStatusLists } from './decoded-status-lists.js';

/** The checks a presented SD-JWT VC can fail: `PresentationRefusedError.rule`. */
export type SdJwtVcRefusalRule =
  | 'format'
  | 'typ'
  | 'issuer_untrusted'
  | 'issuer_signature'
  | 'disclosure'
  | 'expired'
  | 'not_yet_valid'
  | 'key_binding_missing'
  | 'key_binding_signature'
  | 'key_binding_nonce'
  | 'key_binding_audience'
  | 'key_binding_stale'
  | 'sd_hash'
  | 'revoked'
  | 'status_unavailable';

export interface VerifySdJwtVcOptions {
  /** The nonce of the verifier's request: the key binding JWT must carry it. */
  nonce: string;
  /** The verifier's client identifier (e.g. `x509_san_dns:verifier.example`): the KB-JWT's `aud`. */
  audience: string;
  /** The CAs an issuer's `x5c` chain must end in. */
  trustAnchors: TrustAnchors;
  /** The time to check against (default: now). */
  now?: Date;
  /** How old the key binding JWT's `iat` may be (default 300 s). */
  maxKeyBindingAgeSeconds?: number;
  /**
   * Returns the status list token (a compact JWT) at `uri`; default: an HTTP GET with
   * `Accept: application/statuslist+jwt` and a 10 s timeout. A throw refuses the presentation
   * ('status_unavailable').
   */
  fetchStatusList?: (uri: string) => Promise<string>;
  /**
   * Remembered x5c chain checks (ADR 0039; one per verifier, shared by its presentations): a
   * chain accepted against the same anchors is not verified again while all its certificates
   * are valid. Default: every chain verified in full.
   */
  chains?: ChainVerificationCache;
  /**
   * Decoded status lists per URI, each beside the exact token it came from (ADR 0039): the token
   * is fetched and checked for every presentation, only its decoding is reused.
   */
  statusLists?: DecodedStatusLists;
}

export interface VerifiedSdJwtVc {
  format: 'dc+sd-jwt';
  vct: string;
  /** The credential's `iss`. */
  issuer: string;
  /** The subject DN of the issuer's certificate (the `x5c` leaf). */
  issuerCertificateSubject: string;
  /**
   * The disclosed claims and those the issuer made plain, without `_sd`, `_sd_alg`, `cnf`,
   * `status`, `iat`, `exp`, `nbf`, `iss`, `vct`, `vct#integrity`.
   */
  claims: Record<string, unknown>;
  status: 'valid';
}
