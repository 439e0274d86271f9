import { describe, expect, it } from '@jest/globals';
import { jwtVcRefusalRule } from './jwt-vc-refusal-rule.js';

describe('jwtVcRefusalRule: did-service’s failure codes as §14 refusal rules', () => {
  it.each([
    [
      'foreign_issuer',
      'verifiableCredential[0]: not an issuer of this service',
      'issuer_untrusted',
    ],
    ['invalid_signature', 'verifiableCredential[0]: bad signature', 'issuer_signature'],
    ['invalid_signature', 'invalid_signature: no matching key', 'key_binding_signature'],
    ['wrong_nonce', 'The presentation does not carry the nonce', 'key_binding_nonce'],
    ['wrong_audience', 'The presentation is not addressed (aud)', 'key_binding_audience'],
    ['subject_mismatch', 'verifiableCredential[0] is about another subject', 'subject_mismatch'],
    ['revoked', 'verifiableCredential[0]: revoked', 'revoked'],
    ['expired', 'verifiableCredential[0]: JWT has expired', 'expired'],
    ['no_credentials', 'The presentation holds no credential', 'dcql_not_satisfied'],
    ['invalid_jwt', 'the presentation is not a well-formed JWT', 'format'],
    ['a_code_of_a_newer_did_service', 'whatever', 'format'],
  ])('%s (%s) → %s', (code, message, rule) => {
    expect(jwtVcRefusalRule({ code, message })).toBe(rule);
  });
});
