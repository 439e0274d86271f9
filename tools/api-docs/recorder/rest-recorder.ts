import {
  REST_ENDPOINTS,
  catalogKeyOf,
  endpointKey,
  oauthCatalogKeyOf,
  type RestEndpoint,
  type RestEndpointExamples,
} from '@itp/schemas';
import type { Answer, ApiClient, SendOptions } from './api-client.js';
import { shownSafely as shown } from './placeholders.js';

type Method = 'GET' | 'POST';

/**
 * A path of REST_ENDPOINTS as a pattern of request paths: each `{name}` segment stands for one
 * non-empty segment, everything else must be as written.
 */
export function pathPattern(template: string): RegExp {
  const parts = template
    .split(/(\{[^/{}]+\})/)
    .map((part) =>
      /^\{[^/{}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`^${parts.join('')}$`);
}

/**
 * Calls the REST endpoints through the gateway and keeps what they answered: successful
 * exchanges (request and response bodies) and error answers, each filed under the catalog entry
 * it must be (status and code checked against the endpoint's documented errors, so a provocation
 * that hits another error fails the recording instead of documenting the wrong thing).
 */
export class RestRecorder {
  private readonly endpoints: Record<string, RestEndpointExamples> = {};

  constructor(private readonly client: ApiClient) {}

  /** The endpoint a request path is for: its path as is, or its `{name}` segments filled in. */
  private endpoint(method: Method, path: string): RestEndpoint {
    const found = REST_ENDPOINTS.find(
      (e) => e.method === method.toLowerCase() && pathPattern(e.path).test(path),
    );
    if (!found) throw new Error(`${method} ${path} is not in REST_ENDPOINTS`);
    return found;
  }

  private entry(endpoint: RestEndpoint): RestEndpointExamples {
    const key = endpointKey(endpoint);
    return (this.endpoints[key] ??= { examples: [], errors: {} });
  }

  /**
   * A call that must answer its success status (200, or the endpoint's `successStatus`);
   * recorded under `summary` when one is given.
   */
  async ok<T>(
    method: Method,
    path: string,
    options: SendOptions & { summary?: string } = {},
  ): Promise<T> {
    const answer = await this.client.send(method, path, options);
    return this.answered<T>(method, path, answer, { ...options, request: options.json });
  }

  /**
   * An exchange another client made (a wallet): it must have answered 200; recorded under
   * `summary` when one is given, with the body sent (`request`: JSON, or a form's fields).
   */
  answered<T>(
    method: Method,
    path: string,
    answer: Answer,
    options: { summary?: string; request?: unknown; form?: Record<string, string> },
  ): T {
    const endpoint = this.endpoint(method, path);
    if (answer.status !== (endpoint.successStatus ?? 200)) {
      throw new Error(`${method} ${path}: HTTP ${answer.status} ${shown(answer.body)}`);
    }
    const request = options.request ?? options.form;
    if (options.summary) {
      this.entry(endpoint).examples.push({
        summary: options.summary,
        ...(request !== undefined ? { request } : {}),
        ...(answer.body !== undefined ? { response: answer.body } : {}),
      });
    }
    return answer.body as T;
  }

  /**
   * A call to an OpenID4VP endpoint that must be refused as the OID4VP_ERRORS entry `key`: its
   * OAuth error answer is recorded (the first one per key; later ones are only checked).
   */
  async failsOAuth(
    method: Method,
    path: string,
    key: string,
    options: SendOptions = {},
  ): Promise<void> {
    this.refused(method, path, key, await this.client.send(method, path, options));
  }

  /** A refusal another client got (a wallet), checked and recorded as failsOAuth does. */
  refused(method: Method, path: string, key: string, answer: Answer): void {
    const endpoint = this.endpoint(method, path);
    const documented = endpoint.oauthErrors?.find((error) => oauthCatalogKeyOf(error) === key);
    if (!documented) throw new Error(`${method} ${path} documents no OAuth error "${key}"`);
    const body = answer.body as { error?: unknown; error_description?: unknown } | undefined;
    if (answer.status !== documented.status || body?.error !== documented.error) {
      throw new Error(
        `${method} ${path} "${key}": expected HTTP ${documented.status} ${documented.error}, ` +
          `got HTTP ${answer.status} ${shown(body)}`,
      );
    }
    const retryAfter = answer.headers.get('retry-after');
    const recorded = (this.entry(endpoint).oauthErrors ??= {});
    recorded[key] ??= {
      status: answer.status,
      body: { error: documented.error, error_description: String(body?.error_description) },
      ...(retryAfter ? { retryAfter } : {}),
    };
  }

  /** A call that must fail as the catalog entry `key` of the endpoint; its answer is recorded. */
  async fails(method: Method, path: string, key: string, options: SendOptions = {}): Promise<void> {
    const endpoint = this.endpoint(method, path);
    const documented = endpoint.errors.find((error) => catalogKeyOf(error) === key);
    if (!documented) throw new Error(`${method} ${path} documents no error "${key}"`);
    const answer: Answer = await this.client.send(method, path, options);
    const body = answer.body as { error?: { code?: unknown; message?: unknown } } | undefined;
    const code = body?.error?.code;
    if (answer.status !== documented.status || code !== documented.code) {
      throw new Error(
        `${method} ${path} "${key}": expected HTTP ${documented.status} code ${documented.code}, ` +
          `got HTTP ${answer.status} ${shown(body)}`,
      );
    }
    const retryAfter = answer.headers.get('retry-after');
    this.entry(endpoint).errors[key] = {
      status: answer.status,
      body: { error: { code: String(code), message: String(body?.error?.message) } },
      ...(retryAfter ? { retryAfter } : {}),
    };
  }

  /** What was recorded, in the order of REST_ENDPOINTS and of each endpoint's errors. */
  recorded(): Record<string, RestEndpointExamples> {
    const ordered: Record<string, RestEndpointExamples> = {};
    for (const endpoint of REST_ENDPOINTS) {
      const entry = this.endpoints[endpointKey(endpoint)];
      if (!entry) continue;
      const errors: RestEndpointExamples['errors'] = {};
      for (const error of endpoint.errors) {
        const key = catalogKeyOf(error);
        const answer = entry.errors[key];
        if (answer) errors[key] = answer;
      }
      const oauthErrors: NonNullable<RestEndpointExamples['oauthErrors']> = {};
      for (const error of endpoint.oauthErrors ?? []) {
        const key = oauthCatalogKeyOf(error);
        const answer = entry.oauthErrors?.[key];
        if (answer) oauthErrors[key] = answer;
      }
      ordered[endpointKey(endpoint)] = {
        examples: entry.examples,
        errors,
        ...(Object.keys(oauthErrors).length > 0 ? { oauthErrors } : {}),
      };
    }
    return ordered;
  }

  /**
   * The errors every POST of an API answers before its route runs: malformed JSON, a body over
   * the limit, a charset other than UTF-8/16/32.
   */
  async bodyErrors(path: string, options: SendOptions = {}): Promise<void> {
    await this.fails('POST', path, 'malformed', { ...options, raw: '{"id":' });
    await this.fails('POST', path, 'tooLarge', {
      ...options,
      raw: `{"padding":"${'x'.repeat(1024 * 1024)}"}`,
    });
    await this.fails('POST', path, 'charset', {
      ...options,
      raw: '{}',
      contentType: 'application/json; charset=iso-8859-1',
    });
  }
}
