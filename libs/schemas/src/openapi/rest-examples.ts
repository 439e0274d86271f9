import { AUTH_ERRORS } from '../auth/errors.js';
import { OID4VP_ERRORS, type OAuthErrorDoc } from '../auth/oid4vp.js';
import { DID_ERRORS } from '../did/errors.js';
import type { RestErrorDoc } from '../errors/service-errors.js';
import recorded from './rest-examples.json' with { type: 'json' };
import type { RestEndpoint } from './rest-endpoints.js';

/**
 * Examples of the REST endpoints, recorded from real answers of a dev stack by
 * tools/api-docs/record-examples.ts into rest-examples.json (secrets replaced by placeholders,
 * see tools/api-docs/recorder/placeholders.ts). The OpenAPI document shows them; a spec checks
 * that they still fit the current schemas and error catalogs (rest-examples.spec.ts).
 */

/**
 * One successful exchange: the body sent (a form body as an object of its fields) and the 200 body
 * answered (the text of a `textResponse` endpoint); either may be absent.
 */
export interface RestExample {
  summary: string;
  request?: unknown;
  response?: unknown;
}

/** A real error answer of the endpoint for one entry of its API's error catalog. */
export interface RestErrorExample {
  status: number;
  body: { error: { code: string; message: string } };
  /** The Retry-After header, when the answer carried one. */
  retryAfter?: string;
}

/** A real refusal of an OpenID4VP endpoint (OAuth error body) for one entry of OID4VP_ERRORS. */
export interface OAuthErrorExample {
  status: number;
  body: { error: string; error_description: string };
  retryAfter?: string;
}

export interface RestEndpointExamples {
  examples: RestExample[];
  /** By catalog key (e.g. `badCredentials`): see AUTH_ERRORS / DID_ERRORS. */
  errors: Record<string, RestErrorExample>;
  /** By OID4VP_ERRORS key (e.g. `requestGone`): the endpoints with `oauthErrors`. */
  oauthErrors?: Record<string, OAuthErrorExample>;
}

export interface RestExamplesFile {
  $comment: string;
  /** ISO timestamp of the recording. */
  recordedAt: string;
  /** By endpointKey: `POST /v2/auth/auth-user`. */
  endpoints: Record<string, RestEndpointExamples>;
}

export const RECORDED_REST_EXAMPLES = recorded as RestExamplesFile;

/** `POST /v2/auth/auth-user`: the key of an endpoint in RestExamplesFile.endpoints. */
export function endpointKey(endpoint: Pick<RestEndpoint, 'method' | 'path'>): string {
  return `${endpoint.method.toUpperCase()} ${endpoint.path}`;
}

const CATALOGS: Array<Record<string, RestErrorDoc>> = [AUTH_ERRORS, DID_ERRORS];

/** The catalog key of an error entry (`badCredentials` for AUTH_ERRORS.badCredentials). */
export function catalogKeyOf(error: RestErrorDoc): string {
  for (const catalog of CATALOGS) {
    const found = Object.entries(catalog).find(([, entry]) => entry === error);
    if (found) return found[0];
  }
  throw new Error(`error ${error.code} (${error.when}) is in no REST error catalog`);
}

/** The OID4VP_ERRORS key of an OAuth error entry (`requestGone` for OID4VP_ERRORS.requestGone). */
export function oauthCatalogKeyOf(error: OAuthErrorDoc): string {
  const found = Object.entries(OID4VP_ERRORS).find(([, entry]) => entry === error);
  if (!found) throw new Error(`OAuth error ${error.error} (${error.when}) is not in OID4VP_ERRORS`);
  return found[0];
}
