import { z } from 'zod';
import { oauthErrorBodySchema, type OAuthErrorDoc } from '../auth/oid4vp.js';
import type { RestErrorDoc } from '../errors/service-errors.js';
import { REST_ENDPOINTS, type RestEndpoint } from './rest-endpoints.js';
import {
  RECORDED_REST_EXAMPLES,
  catalogKeyOf,
  endpointKey,
  oauthCatalogKeyOf,
  type RestEndpointExamples,
  type RestExample,
  type RestExamplesFile,
} from './rest-examples.js';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';
const SCHEMA_REF = '#/components/schemas/';

export interface OpenApiOptions {
  version: string;
  /** Absolute base URL of the gateway (servers[0].url); omitted: relative to the document. */
  serverUrl?: string;
  /** Links shown in info.description (e.g. the OpenRPC documents). */
  links?: Array<{ title: string; url: string }>;
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function rewriteRefs(node: unknown, rename: (ref: string) => string): void {
  if (Array.isArray(node)) return node.forEach((item) => rewriteRefs(item, rename));
  if (!isRecord(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') node[key] = rename(value);
    else rewriteRefs(value, rename);
  }
}

/**
 * zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Schemas with a `.meta({ id })` and
 * recursive ones come out as `$defs`; they move to components.schemas, refs rewritten.
 */
class Components {
  readonly schemas: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output', name: string): Json {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    delete json['$schema'];
    const defs = isRecord(json['$defs']) ? json['$defs'] : {};
    delete json['$defs'];
    const names = new Map<string, string>();
    for (const key of Object.keys(defs)) {
      names.set(key, key.startsWith('__schema') ? `${name}_${key.slice(2)}` : key);
    }
    const rename = (ref: string): string => {
      if (ref === '#') return SCHEMA_REF + name;
      const key = ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
      return key && names.has(key) ? SCHEMA_REF + names.get(key) : ref;
    };
    for (const [key, def] of Object.entries(defs)) {
      rewriteRefs(def, rename);
      this.schemas[names.get(key) as string] = def as Json;
    }
    rewriteRefs(json, rename);
    this.schemas[name] = json;
    // Always by reference: named components read better in the docs page.
    return { $ref: SCHEMA_REF + name };
  }
}

const pascal = (text: string) =>
  text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');

const ERROR_BODY: Json = {
  type: 'object',
  description: 'The REST error body of every /v2 API.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'the code of the error catalog, e.g. "400"' },
        message: { type: 'string', description: 'what happened' },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
};

const NOT_RECORDED =
  'Not recorded (a dependency outage or a bug cannot be provoked on a dev stack): the message ' +
  'shown is the catalog line, not the real text.';

/**
 * The errors of one endpoint grouped by HTTP status. Each catalog entry is an example named by its
 * catalog key: the answer recorded from a dev stack when there is one, else the catalog line.
 */
function errorResponses(errors: RestErrorDoc[], recorded: RestEndpointExamples['errors']): Json {
  const byStatus = new Map<number, RestErrorDoc[]>();
  for (const error of errors)
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Json = {};
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const examples: Json = {};
    for (const error of list) {
      const key = catalogKeyOf(error);
      const answer = recorded[key];
      examples[key] = answer
        ? {
            summary: error.when,
            description: `Recorded answer${answer.retryAfter ? ` (Retry-After: ${answer.retryAfter})` : ''}.`,
            value: answer.body,
          }
        : {
            summary: error.when,
            description: NOT_RECORDED,
            value: { error: { code: error.code, message: error.when } },
          };
    }
    const codes = [...new Set(list.map((error) => error.code))];
    const response: Json = {
      description: list.map((error) => `\`${error.code}\`: ${error.when}`).join('; '),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: `${SCHEMA_REF}ErrorBody` },
              { properties: { error: { properties: { code: { enum: codes } } } } },
            ],
          },
          examples,
        },
      },
    };
    if (status === 429 || status === 503) {
      response['headers'] = {
        'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } },
      };
    }
    responses[String(status)] = response;
  }
  return responses;
}

/**
 * The refusals of an endpoint that answers in the OAuth error shape (the OpenID4VP endpoints),
 * grouped by HTTP status; each example is the answer recorded for its OID4VP_ERRORS entry when
 * there is one, else the catalog line.
 */
function oauthErrorResponses(
  errors: OAuthErrorDoc[],
  recorded: NonNullable<RestEndpointExamples['oauthErrors']>,
  components: Components,
): Json {
  const schema = components.convert(oauthErrorBodySchema, 'output', 'OAuthErrorBody');
  const byStatus = new Map<number, OAuthErrorDoc[]>();
  for (const error of errors)
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Json = {};
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const examples: Json = {};
    list.forEach((error, i) => {
      const answer = recorded[oauthCatalogKeyOf(error)];
      examples[`${error.error}${list.length > 1 ? `_${i + 1}` : ''}`] = answer
        ? {
            summary: error.when,
            description: `Recorded answer${answer.retryAfter ? ` (Retry-After: ${answer.retryAfter})` : ''}.`,
            value: answer.body,
          }
        : {
            summary: error.when,
            description:
              'Not recorded: the description shown is the catalog line, not the real text.',
            value: { error: error.error, error_description: error.when },
          };
    });
    const codes = [...new Set(list.map((error) => error.error))];
    const response: Json = {
      description: list.map((error) => `\`${error.error}\`: ${error.when}`).join('; '),
      content: {
        'application/json': {
          schema: {
            allOf: [schema, { properties: { error: { enum: codes } } }],
          },
          examples,
        },
      },
    };
    if (status === 503) {
      response['headers'] = {
        'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } },
      };
    }
    responses[String(status)] = response;
  }
  return responses;
}

const withExamples = (examples: Json | undefined): Json => (examples ? { examples } : {});

/** OpenAPI `examples` (a map) from the recorded exchanges that have `part` (JSON or text). */
function examplesOf(list: RestExample[], part: 'request' | 'response'): Json | undefined {
  const examples: Json = {};
  list.forEach((example, i) => {
    if (example[part] === undefined) return;
    const name = example.summary.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || `e${i}`;
    examples[name] = { summary: example.summary, value: example[part] };
  });
  return Object.keys(examples).length > 0 ? examples : undefined;
}

function operation(
  endpoint: RestEndpoint,
  components: Components,
  recorded: RestEndpointExamples,
): Json {
  const base = pascal(endpoint.path.replace(/^\/v2\//, ''));
  const op: Json = {
    operationId: endpoint.operationId ?? `${endpoint.tag}.${endpoint.path.split('/').pop()}`,
    tags: [endpoint.tag],
    summary: endpoint.summary,
  };
  if (endpoint.description) op['description'] = endpoint.description;
  if (endpoint.pathParameters) {
    op['parameters'] = endpoint.pathParameters.map(({ name, description, pattern }) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string', ...(pattern ? { pattern } : {}) },
    }));
  }
  if (endpoint.security) {
    const scheme = endpoint.security.scheme === 'basic' ? 'clientBasic' : 'userBearer';
    op['security'] = endpoint.security.optional ? [{ [scheme]: [] }, {}] : [{ [scheme]: [] }];
  }
  if (endpoint.request) {
    op['requestBody'] = {
      required: true,
      content: {
        [endpoint.requestMediaType ?? 'application/json']: {
          schema: components.convert(endpoint.request, 'input', `${base}Request`),
          ...withExamples(examplesOf(recorded.examples, 'request')),
        },
      },
    };
  }
  const ok: Json = { description: endpoint.response ? 'Success' : 'Success (no body)' };
  if (endpoint.response) {
    const others = Object.fromEntries(
      (endpoint.otherMediaTypes ?? []).map(({ type, description }) => [
        type,
        { schema: { type: 'string', description } },
      ]),
    );
    ok['content'] = {
      ...others,
      'application/json': {
        schema: components.convert(endpoint.response, 'output', `${base}Response`),
        ...withExamples(examplesOf(recorded.examples, 'response')),
      },
    };
  }
  if (endpoint.textResponse) {
    ok['description'] = 'Success';
    ok['content'] = {
      [endpoint.textResponse.type]: {
        schema: { type: 'string', description: endpoint.textResponse.description },
        ...withExamples(examplesOf(recorded.examples, 'response')),
      },
    };
  }
  if (endpoint.responseHeaders) {
    ok['headers'] = Object.fromEntries(
      Object.entries(endpoint.responseHeaders).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    );
  }
  op['responses'] = {
    [String(endpoint.successStatus ?? 200)]: ok,
    ...(endpoint.conditional
      ? { '304': { description: 'Not modified: If-None-Match names the current ETag' } }
      : {}),
    ...errorResponses(endpoint.errors, recorded.errors),
    ...(endpoint.oauthErrors
      ? oauthErrorResponses(endpoint.oauthErrors, recorded.oauthErrors ?? {}, components)
      : {}),
  };
  return op;
}

/**
 * The OpenAPI 3.1 document of the REST APIs (/v2/auth, /v2/did), from their zod schemas, with the
 * examples recorded from real answers (rest-examples.json).
 */
export function buildOpenApiDocument(
  options: OpenApiOptions,
  endpoints = REST_ENDPOINTS,
  examples: RestExamplesFile = RECORDED_REST_EXAMPLES,
): Json {
  const components = new Components();
  const paths: Record<string, Json> = {};
  for (const endpoint of endpoints) {
    paths[endpoint.path] = {
      ...paths[endpoint.path],
      [endpoint.method]: operation(
        endpoint,
        components,
        examples.endpoints[endpointKey(endpoint)] ?? { examples: [], errors: {} },
      ),
    };
  }
  const links = (options.links ?? []).map(({ title, url }) => `- [${title}](${url})`).join('\n');
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Identity and token platform: REST APIs',
      version: options.version,
      description:
        'Authentication (`/v2/auth`) and DIDs / verifiable credentials (`/v2/did`). Every error is ' +
        '`{ "error": { "code", "message" } }` but those of the OpenID4VP endpoints a wallet calls ' +
        '(`/v2/auth/oid4vp/*`: OAuth `{ "error", "error_description" }`); each operation lists ' +
        'the codes it can answer. ' +
        'Web sites log users in with OpenID Connect at the issuer `<server>/v2/auth/oidc`: its ' +
        'endpoints (authorization, token with refresh tokens, userinfo, JWKS, end-session, ' +
        'revocation) and their errors are ' +
        'described by its discovery document `/v2/auth/oidc/.well-known/openid-configuration`. ' +
        'Unknown routes answer 404. The JSON-RPC APIs are described by OpenRPC documents' +
        (links ? `:\n\n${links}` : '.'),
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [
      { name: 'auth', description: 'Users, password and QR (app) login, JWTs' },
      { name: 'did', description: 'did:ethr DIDs, verifiable credentials and presentations' },
    ],
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY, ...components.schemas },
      securitySchemes: {
        clientBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'relying-party client id and secret',
        },
        userBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}
