import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { newInternalTokens, type InternalTokenName } from '@itp/crypto';
import { REDACT_PATHS, loadConfig, type Env, type Logger } from '@itp/service-kit';
import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { closedIfAbandoned } from '@itp/testing/abandoned-starts';
import { buildDidService, type DidAppOverrides, type DidServiceParts } from '../app.js';
import { didServiceConfigSchema, type DidConfig } from '../config.js';
import { startAuthStandIn, type AuthStandIn } from './auth-stand-in.js';
import { ensureTestDidRegistry } from './did-registry.js';
import { startWalletStandIn, type WalletStandIn } from './wallet-stand-in.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  // Answers are asserted field by field in the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface DidHarness {
  /** Base URL of the running did-service. */
  url: string;
  app: DidServiceParts;
  config: DidConfig;
  database: TestDatabase;
  wallet: WalletStandIn;
  auth: AuthStandIn;
  /** Base URL of its internal listener (`/internal/v1/*`, what auth-service calls). */
  internalUrl: string;
  /** The token its internal API accepts (INTERNAL_TOKEN_AUTH_TO_DID: auth-service's). */
  internalToken: string;
  /** Every log line the service wrote (JSON text). */
  logs: string[];
  /** Stops the service and builds a new one on the same database and config (a restart). */
  restart(): Promise<void>;
  /** Builds one more instance (not listening) with these settings changed; the caller closes it. */
  buildWith(env: Env): Promise<DidServiceParts>;
  /** The settings of this harness with `env` changed. */
  configWith(env: Env): DidConfig;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  /** POST to the internal listener: with the internal token, or with exactly `headers` when given. */
  postInternal(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  get(path: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** PUBLIC_URL of the harness: status list URLs start with it. */
export const HARNESS_PUBLIC_URL = 'https://api.did-harness.test';

/** The path of a status list URL (statusListCredential), to fetch it from the harness itself. */
export function statusListPath(listUrl: string): string {
  return new URL(listUrl).pathname;
}

/** A logger like service-kit's (same redaction) that keeps its lines in memory. */
export function memoryLogger(lines: string[]): Logger {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
}

/**
 * did-service built with app.ts against the real test Redis, a fresh PostgreSQL database and the
 * dev chain (registry deployed), with stand-ins for token-rpc's wallet and auth-service's JWKS
 * reached over real HTTP; listening on a free port.
 */
export function startDidHarness(
  env: Env = {},
  overrides: Pick<DidAppOverrides, 'now' | 'sdJwtIssuerKeys'> = {},
): Promise<DidHarness> {
  // Closed by the jest setup when it finishes after its beforeAll timed out (tools/jest).
  return closedIfAbandoned(startHarness(env, overrides));
}

async function startHarness(
  env: Env,
  overrides: Pick<DidAppOverrides, 'now' | 'sdJwtIssuerKeys'>,
): Promise<DidHarness> {
  const registry = await ensureTestDidRegistry(testChainUrl());
  // One token per pair of services, as in production (those `env` gives win): the stand-ins
  // accept only their own.
  const tokens = newInternalTokens();
  for (const name of Object.keys(tokens) as InternalTokenName[])
    tokens[name] = env[name] ?? tokens[name];
  const database = await createTestDatabase();
  const wallet = await startWalletStandIn(tokens.INTERNAL_TOKEN_DID_TO_TOKEN_RPC);
  const auth = await startAuthStandIn(tokens.INTERNAL_TOKEN_DID_TO_AUTH);
  const baseEnv: Env = {
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'trace',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: uniquePrefix('did'),
    DATABASE_URL: database.url,
    ETH_RPC_URL: testChainUrl(),
    DID_REGISTRY_ADDRESS: registry,
    TOKEN_RPC_INTERNAL_URL: wallet.url,
    AUTH_SERVICE_URL: auth.url,
    AUTH_SERVICE_INTERNAL_URL: auth.url,
    ...tokens,
    DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
    // Where a gateway would be: the base of the status list URLs in issued VCs (never fetched;
    // specs read a list from this service at the same path, see `statusListPath`).
    PUBLIC_URL: HARNESS_PUBLIC_URL,
    ...env,
  };
  const configWith = (changes: Env) =>
    loadConfig(didServiceConfigSchema, { ...baseEnv, ...changes });
  const config = configWith({});
  const logs: string[] = [];
  const build = () => buildDidService(config, memoryLogger(logs), overrides);
  let app = await build();
  let { url, internalUrl = '' } = await app.service.listen();
  const send = async (
    base: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const harness: DidHarness = {
    get url() {
      return url;
    },
    get internalUrl() {
      return internalUrl;
    },
    get app() {
      return app;
    },
    config,
    database,
    wallet,
    auth,
    internalToken: tokens.INTERNAL_TOKEN_AUTH_TO_DID,
    logs,
    async restart() {
      await app.service.close();
      app = await build();
      ({ url, internalUrl = '' } = await app.service.listen());
    },
    buildWith: (changes) => buildDidService(configWith(changes), memoryLogger(logs)),
    configWith,
    post: (path, body, headers = {}) => send(url, path, body, headers),
    postInternal: (path, body, headers) =>
      send(
        internalUrl,
        path,
        body,
        headers ?? { authorization: `Bearer ${tokens.INTERNAL_TOKEN_AUTH_TO_DID}` },
      ),
    async get(path, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        headers: { accept: 'application/json', ...headers },
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async close() {
      await app.service.close();
      await Promise.all([wallet.close(), auth.close()]);
      await database.drop();
    },
  };
  return harness;
}
