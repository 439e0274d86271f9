import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from './build-openapi.js';
import { REST_ENDPOINTS } from './rest-endpoints.js';
import {
  RECORDED_REST_EXAMPLES,
  catalogKeyOf,
  endpointKey,
  oauthCatalogKeyOf,
} from './rest-examples.js';

// The committed examples (rest-examples.json, recorded from a dev stack by
// tools/api-docs/record-examples.ts) against the endpoint table and the schemas as they are now.
// No stack needed: a schema or catalog change the examples no longer fit fails here; record them
// again.

const recorded = RECORDED_REST_EXAMPLES.endpoints;
const endpoints = REST_ENDPOINTS.map((endpoint) => [endpointKey(endpoint), endpoint] as const);

describe('recorded REST examples', () => {
  it('exist for every endpoint, and only for endpoints that exist', () => {
    const keys = endpoints.map(([key]) => key);
    expect(
      keys.map((key) => ({ key, examples: (recorded[key]?.examples.length ?? 0) > 0 })),
    ).toEqual(keys.map((key) => ({ key, examples: true })));
    expect(Object.keys(recorded).filter((key) => !keys.includes(key))).toEqual([]);
  });

  it.each(endpoints)('%s: request and response bodies fit the endpoint’s schemas', (_key, e) => {
    for (const example of recorded[endpointKey(e)]?.examples ?? []) {
      const request =
        e.request === undefined
          ? example.request === undefined || 'no request body expected'
          : (e.request.safeParse(example.request).error?.issues ?? true);
      const response = e.textResponse
        ? typeof example.response === 'string' || 'a text response expected'
        : e.response === undefined
          ? example.response === undefined || 'no response body expected'
          : (e.response.safeParse(example.response).error?.issues ?? true);
      expect({ example: example.summary, request, response }).toEqual({
        example: example.summary,
        request: true,
        response: true,
      });
    }
  });

  it.each(endpoints)('%s: each error answer is one the endpoint documents', (_key, e) => {
    const documented = new Map(e.errors.map((error) => [catalogKeyOf(error), error]));
    for (const [key, answer] of Object.entries(recorded[endpointKey(e)]?.errors ?? {})) {
      const entry = documented.get(key);
      expect({ key, documented: entry !== undefined }).toEqual({ key, documented: true });
      expect({ key, status: answer.status, code: answer.body.error.code }).toEqual({
        key,
        status: entry?.status,
        code: entry?.code,
      });
      expect(answer.body.error.message).toEqual(expect.any(String));
    }
    const oauth = new Map((e.oauthErrors ?? []).map((error) => [oauthCatalogKeyOf(error), error]));
    for (const [key, answer] of Object.entries(recorded[endpointKey(e)]?.oauthErrors ?? {})) {
      const entry = oauth.get(key);
      expect({ key, status: answer.status, error: answer.body.error }).toEqual({
        key,
        status: entry?.status,
        error: entry?.error,
      });
      expect(answer.body.error_description).toEqual(expect.any(String));
    }
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument({ version: 'test' }) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  type Content = { examples?: Record<string, { value: unknown; description?: string }> };
  /** The JSON content of a body, or its only one (a form body). */
  const content = (node: unknown): Content => {
    const all = (node as { content: Record<string, Content> }).content;
    return (all['application/json'] ?? Object.values(all)[0]) as Content;
  };

  it('shows the recorded bodies as request and success (200 or 201) examples', () => {
    for (const [key, endpoint] of endpoints) {
      const op = doc.paths[endpoint.path]?.[endpoint.method] as {
        requestBody?: unknown;
        responses: Record<string, unknown>;
      };
      const first = recorded[key]?.examples[0];
      if (endpoint.request) {
        const values = Object.values(content(op.requestBody).examples ?? {}).map((x) => x.value);
        expect({ key, request: values[0] }).toEqual({ key, request: first?.request });
      }
      if (endpoint.response) {
        const success = String(endpoint.successStatus ?? 200);
        const values = Object.values(content(op.responses[success]).examples ?? {});
        expect({ key, response: values[0]?.value }).toEqual({ key, response: first?.response });
      }
    }
  });

  it('shows a recorded error answer where there is one, else the catalog line', () => {
    const op = doc.paths['/v2/auth/auth-user-result-by-app']?.['post'] as {
      responses: Record<string, unknown>;
    };
    const still = content(op.responses['401']).examples?.['stillWaiting'];
    expect(still?.value).toEqual(
      recorded['POST /v2/auth/auth-user-result-by-app']?.errors['stillWaiting']?.body,
    );
    const unavailable = content(op.responses['503']).examples?.['unavailable'];
    expect(unavailable?.description).toMatch(/^Not recorded/);
  });

  it('shows the recorded request object and OAuth refusals of the OpenID4VP endpoints', () => {
    const get = doc.paths['/v2/auth/oid4vp/request/{id}']?.['get'] as {
      responses: Record<string, unknown>;
    };
    const request = recorded['GET /v2/auth/oid4vp/request/{id}'];
    const objects = Object.values(content(get.responses['200']).examples ?? {});
    expect(objects[0]?.value).toEqual(request?.examples[0]?.response);
    expect(content(get.responses['404']).examples?.['invalid_request']?.value).toEqual(
      request?.oauthErrors?.['requestGone']?.body,
    );
    const post = doc.paths['/v2/auth/oid4vp/response/{id}']?.['post'] as {
      responses: Record<string, unknown>;
    };
    const refusals = Object.values(content(post.responses['400']).examples ?? {});
    expect(refusals.map((example) => example.value)).toEqual([
      recorded['POST /v2/auth/oid4vp/response/{id}']?.oauthErrors?.['responseInvalid']?.body,
      recorded['POST /v2/auth/oid4vp/response/{id}']?.oauthErrors?.['accessDenied']?.body,
    ]);
  });
});
