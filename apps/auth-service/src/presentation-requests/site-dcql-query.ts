import { DcqlQuery } from 'dcql';
import { DcqlQueryRefusedError } from '../errors.js';

/** At most this many credentials in one query (each is verified when the wallet answers). */
export const MAX_DCQL_CREDENTIALS = 10;

/**
 * The formats a site may ask for: those @itp/presentations verifies, and this service's own W3C
 * VCs (`jwt_vc_json`, verified by did-service).
 */
export const SUPPORTED_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json'] as const;
export type SupportedFormat = (typeof SUPPORTED_FORMATS)[number];

/** The first element of every `jwt_vc_json` claim path: the answer holds this object's claims. */
export const CREDENTIAL_SUBJECT = 'credentialSubject';

const isSupported = (format: string): format is SupportedFormat =>
  (SUPPORTED_FORMATS as readonly string[]).includes(format);

/**
 * A `jwt_vc_json` query names its types (`meta.type_values`), and its claim paths start at the
 * credential (OpenID4VP 1.0 Appendix B.1): `["credentialSubject", …]`, the only part answered.
 */
function jwtVcQueryIssue(
  credential: Extract<
    DcqlQuery.Output['credentials'][number],
    { format: 'jwt_vc_json' | 'ldp_vc' | 'vc+sd-jwt' }
  >,
): string | undefined {
  const { id } = credential;
  if (credential.meta?.type_values === undefined) {
    return `credential ${id}: a jwt_vc_json query needs meta.type_values`;
  }
  const outside = (credential.claims ?? []).find(
    (claim) => claim.path[0] !== CREDENTIAL_SUBJECT || claim.path.length < 2,
  );
  if (outside) {
    return `credential ${id}: a jwt_vc_json claim path starts with "${CREDENTIAL_SUBJECT}" and names a claim in it (${JSON.stringify(outside.path)})`;
  }
  return undefined;
}

/** Why one credential query is not taken, or undefined. */
function credentialQueryIssue(
  credential: DcqlQuery.Output['credentials'][number],
): string | undefined {
  const { id, format } = credential;
  if (!isSupported(format)) {
    return `credential ${id}: format ${format} is not supported (supported: ${SUPPORTED_FORMATS.join(', ')})`;
  }
  if (credential.format === 'dc+sd-jwt' && credential.meta?.vct_values === undefined) {
    return `credential ${id}: a dc+sd-jwt query needs meta.vct_values`;
  }
  if (credential.format === 'mso_mdoc' && credential.meta?.doctype_value === undefined) {
    return `credential ${id}: an mso_mdoc query needs meta.doctype_value`;
  }
  if (credential.format === 'jwt_vc_json') return jwtVcQueryIssue(credential);
  return undefined;
}

/**
 * A site's `dcql_query` (OpenID4VP 1.0 §6) as the `dcql` package parses and validates it, with
 * this verifier's limits: at most MAX_DCQL_CREDENTIALS credentials, each in a supported format
 * naming its type (dc+sd-jwt: meta.vct_values; mso_mdoc: meta.doctype_value; jwt_vc_json:
 * meta.type_values, claim paths in credentialSubject). Anything else:
 * DcqlQueryRefusedError (400) saying what.
 */
export function parseSiteDcqlQuery(input: unknown): DcqlQuery.Output {
  let query: DcqlQuery.Output;
  try {
    query = DcqlQuery.parse(input as DcqlQuery.Input);
    DcqlQuery.validate(query);
  } catch (err) {
    const why = err instanceof Error ? err.message.slice(0, 500) : 'not a DCQL query';
    throw new DcqlQueryRefusedError(`dcql_query is not a valid DCQL query: ${why}`);
  }
  if (query.credentials.length > MAX_DCQL_CREDENTIALS) {
    throw new DcqlQueryRefusedError(
      `dcql_query asks for ${query.credentials.length} credentials; at most ${MAX_DCQL_CREDENTIALS}`,
    );
  }
  for (const credential of query.credentials) {
    const issue = credentialQueryIssue(credential);
    if (issue) throw new DcqlQueryRefusedError(`dcql_query: ${issue}`);
  }
  return query;
}
