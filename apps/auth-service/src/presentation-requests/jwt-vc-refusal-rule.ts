/**
 * The refusal rule (docs/api.md §14) of did-service's verification failure code for a
 * `jwt_vc_json` presentation: the VP's signature is its holder binding (key_binding_*), a VC's
 * is its issuer's (issuer_*). did-service names a VC's failure `verifiableCredential[<i>]: …`.
 */
export function jwtVcRefusalRule(error: { code: string; message: string }): string {
  const aboutVc = error.message.startsWith('verifiableCredential[');
  switch (error.code) {
    case 'foreign_issuer':
      return 'issuer_untrusted';
    case 'invalid_signature':
      return aboutVc ? 'issuer_signature' : 'key_binding_signature';
    case 'wrong_nonce':
      return 'key_binding_nonce';
    case 'wrong_audience':
      return 'key_binding_audience';
    case 'subject_mismatch':
      return 'subject_mismatch';
    case 'expired':
    case 'not_yet_valid':
    case 'revoked':
    case 'status_unavailable':
      return error.code;
    case 'no_credentials':
      return 'dcql_not_satisfied';
    default:
      return 'format';
  }
}
