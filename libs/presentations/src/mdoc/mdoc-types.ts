import type { TrustAnchors } from '@itp/x509';

/** The checks an mdoc presentation can fail; `PresentationRefusedError.rule` holds one. */
export type MdocRefusalRule =
  | 'format'
  | 'doctype'
  | 'issuer_untrusted'
  | 'issuer_signature'
  | 'validity'
  | 'digest'
  | 'device_signature';

export interface VerifyMdocOptions {
  /** The verifier's client_id as the wallet saw it in the request (e.g. `x509_san_dns:…`). */
  clientId: string;
  nonce: string;
  responseUri: string;
  /**
   * The JWK SHA-256 thumbprint (RFC 7638) bytes of the verifier's encryption key when the
   * response was encrypted (OpenID4VP 1.0 Appendix B.2.6.1); absent for an unencrypted one.
   */
  jwkThumbprint?: Uint8Array;
  trustAnchors: TrustAnchors;
  now?: Date;
  expectedDocType?: string;
}

export interface VerifiedMdoc {
  format: 'mso_mdoc';
  docType: string;
  /** The document signer certificate's subject (RFC 4514 string). */
  issuer: string;
  /** Namespace → element → value, only the disclosed elements; dates ISO, bytes base64url. */
  claims: Record<string, Record<string, unknown>>;
  /**
   * Namespace → the identifiers of elements the wallet sent in DeviceSigned nameSpaces (asserted
   * by the holder's device, attested by no issuer): names only, never in `claims`. Absent when
   * there are none.
   */
  deviceSignedElements?: Record<string, string[]>;
  status: 'valid';
}
