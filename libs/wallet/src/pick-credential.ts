import type { DcqlCredential, DcqlQuery } from 'dcql';
import type { HeldCredential } from './held-credential.js';
import { Openid4vpWalletError } from './wallet-error.js';
import { loadedWalletPackages } from './wallet-packages.js';

/** The credential queries of a DCQL query as the request carries it (for messages). */
function credentialQueries(dcql: unknown): { id?: unknown; format?: unknown }[] {
  const credentials = (dcql as { credentials?: unknown } | undefined)?.credentials;
  return Array.isArray(credentials) ? (credentials as { id?: unknown; format?: unknown }[]) : [];
}

/** A held `jwt_vc_json` credential as `dcql` matches it (its `vc` claim). */
function dcqlCredentialOf(held: HeldCredential): DcqlCredential {
  return {
    credential_format: 'jwt_vc_json',
    type: held.types,
    claims: held.claims as Record<string, never>,
    cryptographic_holder_binding: true,
  };
}

/**
 * The first credential query of the request that a held credential satisfies, matched by the
 * `dcql` library (format `jwt_vc_json`, `meta.type_values`, claims), and that credential. With
 * `holder`, only credentials issued to it (`credentialSubject.id` or `sub`) are candidates: the
 * verifier checks that the VP's signer is the VC's subject.
 *
 * Synchronous: it runs on a query the awaited `resolveRequest` returned (packages loaded).
 */
export function pickCredential(
  dcqlQuery: unknown,
  held: HeldCredential[],
  holder?: string,
): { queryId: string; credential: HeldCredential } {
  const queries = credentialQueries(dcqlQuery);
  if (queries.length === 0) {
    throw new Openid4vpWalletError('the request has no DCQL credential query', 'invalid_request');
  }
  const { DcqlQuery } = loadedWalletPackages().dcql;
  let query: DcqlQuery.Output;
  try {
    query = DcqlQuery.parse(dcqlQuery as DcqlQuery.Input);
    DcqlQuery.validate(query);
  } catch (err) {
    throw new Openid4vpWalletError(
      `the request's DCQL query is not valid: ${(err as Error).message}`,
      'invalid_request',
    );
  }
  const candidates =
    holder === undefined
      ? held
      : held.filter((vc) => vc.subject?.toLowerCase() === holder.toLowerCase());
  if (candidates.length > 0) {
    const result = DcqlQuery.query(query, candidates.map(dcqlCredentialOf));
    for (const { id } of query.credentials) {
      const match = result.credential_matches[id];
      const index = match?.success ? match.valid_credentials[0].input_credential_index : undefined;
      const credential = index === undefined ? undefined : candidates[index];
      if (credential) return { queryId: id, credential };
    }
  }
  const asked = queries.map((q) => `${String(q.id)}: ${String(q.format)}`).join(', ');
  throw new Openid4vpWalletError(
    holder === undefined
      ? `no credential matches the request's query (${asked})`
      : `no given credential issued to ${holder} matches the request's query (${asked})`,
    'no_matching_credential',
  );
}
