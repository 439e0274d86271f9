import { DcqlQuery } from 'dcql';
import { DcqlQueryRefusedError } from '../errors.js';

/** At most this many credentials in one query (each is verified when the wallet answers). */
export const MAX_DCQL_CREDENTIALS = 10;

/** The formats a site may ask for: those @itp/presentations verifies. */
export const SUPPORTED_FORMATS = ['dc+sd-jwt', 'mso_mdoc'] as const;
export type SupportedFormat = (typeof SUPPORTED_FORMATS)[number];

const isSupported = (format: string): format is SupportedFormat =>
  (SUPPORTED_FORMATS as readonly string[]).includes(format);

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
  return undefined;
}

/**
 * A site's `dcql_query` (OpenID4VP 1.0 §6) as the `dcql` package parses and validates it, with
 * this verifier's limits: at most MAX_DCQL_CREDENTIALS credentials, each in a supported format
 * naming its type (dc+sd-jwt: meta.vct_values; mso_mdoc: meta.doctype_value). Anything else:
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
