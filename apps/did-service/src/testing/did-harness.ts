import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { REDACT_PATHS, loadConfig, type Env, type Logger } from '@itp/service-kit';
import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { buildDidApp, type DidApp } from '../app.js';
import { configSchema, type DidConfig } from '../config.js';
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
  app: DidApp;
  config: DidConfig;
  database: TestDatabase;
  wallet: WalletStandIn;
  auth: AuthStandIn;
  internalApiToken: string;
  /** Every log line the service wrote (JSON text). */
  logs: string[];
  /** Stops the service and builds a new one on the same database and config (a restart). */
  restart(): Promise<void>;
  /** Builds one more instance (not listening) with these settings changed; the caller closes it. */
  buildWith(env: Env): Promise<DidApp>;
  /** The settings of this harness with `env` changed. */
  configWith(env: Env): DidConfig;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  get(path: string): Promise<HttpAnswer>;
  close(): Promise<void>;
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
export async function startDidHarness(env: Env = {}): Promise<DidHarness> {
  const registry = await ensureTestDidRegistry(testChainUrl());
  const internalApiToken = env.INTERNAL_API_TOKEN ?? randomBytes(32).toString('base64url');
  const database = await createTestDatabase();
  const wallet = await startWalletStandIn(internalApiToken);
  const auth = await startAuthStandIn(internalApiToken);
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
    TOKEN_RPC_URL: wallet.url,
    AUTH_SERVICE_URL: auth.url,
    INTERNAL_API_TOKEN: internalApiToken,
    DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
    ...env,
  };
  const configWith = (changes: Env) => loadConfig(configSchema, { ...baseEnv, ...changes });
  const config = configWith({});
  const logs: string[] = [];
  const build = () => buildDidApp(config, memoryLogger(logs));
  let app = await build();
  let url = (await app.service.listen()).url;
  const harness: DidHarness = {
    get url() {
      return url;
    },
    get app() {
      return app;
    },
    config,
    database,
    wallet,
    auth,
    internalApiToken,
    logs,
    async restart() {
      await app.service.close();
      app = await build();
      url = (await app.service.listen()).url;
    },
    buildWith: (changes) => buildDidApp(configWith(changes), memoryLogger(logs)),
    configWith,
    async post(path, body, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async get(path) {
      const res = await fetch(`${url}${path}`, { headers: { accept: 'application/json' } });
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
