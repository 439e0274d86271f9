import { randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { createLogger, loadConfig, type Env } from '@itp/service-kit';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { closedIfAbandoned } from '@itp/testing/abandoned-starts';
import { buildAuthService, type AuthDomain, type AuthServiceTestOptions } from '../app.js';
import { authServiceConfigSchema, type AuthConfig } from '../config.js';
import { generateRsaSigningJwk, generateSigningJwk } from '../jwt/signing-keys.js';

export interface RunningAuthService {
  url: string;
  /** Its internal listener (`/internal/v1/*`, what did-service calls). */
  internalUrl: string;
  /** Its Prometheus listener (`${metricsUrl}/metrics`). */
  metricsUrl: string;
  config: AuthConfig;
  domain: AuthDomain;
  close(): Promise<void>;
}

/** A fresh internal API token (what each `INTERNAL_TOKEN_*` must look like: 256 random bits). */
export function newInternalApiToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A local URL where nothing listens (for tests that never reach did-service). */
export const UNUSED_URL = 'http://127.0.0.1:9';

/** One RSA key per test process: 2048-bit generation is slow, and its freshness is not tested. */
let rsaKey: Promise<JWK> | undefined;

/**
 * A fresh signing-keys secret as production has it: a new private EC JWK (ES256) and an RSA one
 * (RS256 id_tokens; shared within the test process).
 */
export async function newSigningKeysSecret(): Promise<string> {
  rsaKey ??= generateRsaSigningJwk();
  return JSON.stringify([await generateSigningJwk(), await rsaKey]);
}

/**
 * Test helper: builds auth-service with app.ts (APP_ENV=test, which is production: so it passes
 * what production needs — fresh signing keys, random internal tokens, a DID_SERVICE_INTERNAL_URL
 * where nothing listens unless given, a PUBLIC_URL) against the real Redis of the jest setup (own
 * key prefix unless given) and the DATABASE_URL in `env`, on an ephemeral port. TRUST_PROXY is `loopback`
 * (the test plays the gateway's hop and sets X-Forwarded-For); pass `TRUST_PROXY: undefined`
 * for the service's default (trust nobody).
 */
export function startAuthService(
  env: Env,
  options: AuthServiceTestOptions = {},
): Promise<RunningAuthService> {
  // Closed by the jest setup when it finishes after its beforeAll timed out (tools/jest).
  return closedIfAbandoned(startAuthServiceNow(env, options));
}

async function startAuthServiceNow(
  env: Env,
  options: AuthServiceTestOptions,
): Promise<RunningAuthService> {
  const config = loadConfig(authServiceConfigSchema, {
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: uniquePrefix('auth'),
    JWT_SIGNING_KEYS: env.JWT_SIGNING_KEYS ?? (await newSigningKeysSecret()),
    INTERNAL_TOKEN_AUTH_TO_DID: newInternalApiToken(),
    INTERNAL_TOKEN_DID_TO_AUTH: newInternalApiToken(),
    DID_SERVICE_INTERNAL_URL: UNUSED_URL,
    PUBLIC_URL: 'https://api.example.test',
    TRUST_PROXY: 'loopback',
    ...env,
  });
  const { service, domain } = await buildAuthService(
    config,
    createLogger({ name: 'auth-service', level: config.LOG_LEVEL }),
    options,
  );
  const { url, internalUrl = '', metricsUrl } = await service.listen();
  return { url, internalUrl, metricsUrl, config, domain, close: () => service.close() };
}

/** `Authorization: Basic …` for a client id and secret. */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** POSTs JSON (or a raw string) and reads the answer as text and, when it parses, as JSON. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
