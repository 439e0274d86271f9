/** Claims that describe the credential rather than its subject: not returned as `claims`. */
const CREDENTIAL_CLAIMS = [
  '_sd',
  '_sd_alg',
  'cnf',
  'status',
  'iat',
  'exp',
  'nbf',
  'iss',
  'vct',
  'vct#integrity',
];

/** The unpacked claims (disclosed and plain) without the credential's own claims. */
export function visibleClaims(unpacked: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(unpacked)) {
    if (!CREDENTIAL_CLAIMS.includes(name)) claims[name] = value;
  }
  return claims;
}
