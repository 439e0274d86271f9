import { UnauthorizedError } from '@itp/errors';

/** The rule of verifyCertificateChain that refused a chain. */
export type CertificateChainRule =
  | 'empty-chain'
  | 'chain-too-long'
  | 'unparsable-certificate'
  | 'validity'
  | 'critical-extension'
  | 'signature-algorithm'
  | 'unsupported-key'
  | 'chain-order'
  | 'chain-signature'
  | 'not-a-ca'
  | 'ca-key-usage'
  | 'path-length'
  | 'leaf-is-ca'
  | 'leaf-key-usage'
  | 'untrusted-anchor';

/** An x5c chain refused: `rule` says which check failed, the message says for which certificate. */
export class UntrustedCertificateError extends UnauthorizedError {
  readonly rule: CertificateChainRule;

  constructor(rule: CertificateChainRule, message: string) {
    super(`untrusted certificate chain (${rule}): ${message}`, { details: { rule } });
    this.rule = rule;
  }
}
