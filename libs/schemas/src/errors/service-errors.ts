/**
 * The error catalogs of the APIs: one typed table per API, the single source of each code and of
 * when it is answered. The services take their documented error lists (OpenRPC `x-service-errors`,
 * the RpcServer description) from it, and `npm run docs:errors` writes the README tables from it
 * (tools/docs/error-tables.ts; a test fails when a README drifts).
 */

/** A service error of a JSON-RPC API: `result.resultCode` and when it is answered. */
export interface ServiceErrorDoc {
  resultCode: string;
  when: string;
}

/** An error of a REST API: HTTP status, `error.code` and when it is answered. */
export interface RestErrorDoc {
  status: number;
  code: string;
  when: string;
}

/** The chain node is down: the same code on /token and /block (and 503 on REST). */
export const CHAIN_UNAVAILABLE: ServiceErrorDoc = {
  resultCode: '503',
  when:
    'the chain node cannot be reached or did not answer in time, or — after consecutive timeouts ' +
    'or connection failures — its circuit breaker is open and the call is refused at once without ' +
    'reaching it (resultMessage "Chain node unavailable: …")',
};

/** A one-line summary of a catalog's codes, e.g. for an OpenRPC `info.description`. */
export function summarizeServiceErrors(catalog: Record<string, ServiceErrorDoc>): string {
  const byCode = new Map<string, string[]>();
  for (const { resultCode, when } of Object.values(catalog)) {
    const list = byCode.get(resultCode) ?? [];
    list.push(when.split(/[;(:]/)[0]?.trim() ?? when);
    byCode.set(resultCode, list);
  }
  return [...byCode.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, whens]) => `${code} ${whens.join(' / ')}`)
    .join('; ');
}
