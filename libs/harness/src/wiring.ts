/**
 * How the apps of a stack are wired to each other: which services stand behind the gateway, the
 * variables that name their URLs, and the whole environment of one app process (serviceEnv).
 * Used by `npm start` (tools/dev/dev-stack.ts), startStack (stack.ts) and their specs.
 */
import { internalTokenEnv, type InternalTokens } from '@itp/crypto';

/**
 * The services behind the gateway, in start order, with the variable that names each one's
 * public URL and, for a service with an internal API, the one that names its internal listener.
 */
export const UPSTREAMS = [
  { name: 'block-rpc', urlVariable: 'BLOCK_RPC_URL' },
  {
    name: 'token-rpc',
    urlVariable: 'TOKEN_RPC_URL',
    internalUrlVariable: 'TOKEN_RPC_INTERNAL_URL',
  },
  {
    name: 'auth-service',
    urlVariable: 'AUTH_SERVICE_URL',
    internalUrlVariable: 'AUTH_SERVICE_INTERNAL_URL',
  },
  {
    name: 'did-service',
    urlVariable: 'DID_SERVICE_URL',
    internalUrlVariable: 'DID_SERVICE_INTERNAL_URL',
  },
] as const satisfies ReadonlyArray<{
  name: string;
  urlVariable: string;
  internalUrlVariable?: string;
}>;

/** The upstreams with an internal API (their own INTERNAL_PORT listener). */
export const INTERNAL_UPSTREAMS = UPSTREAMS.filter(
  (u): u is Extract<(typeof UPSTREAMS)[number], { internalUrlVariable: string }> =>
    'internalUrlVariable' in u,
);

export const GATEWAY = 'gateway';

/** The name of a service behind the gateway. */
export type UpstreamName = (typeof UPSTREAMS)[number]['name'];

/** Every app of a stack: the upstreams in start order, then the gateway. */
export const APP_NAMES: readonly string[] = [...UPSTREAMS.map((u) => u.name), GATEWAY];

/** The one explicit switch to development mode (demo user, demo site, funded addresses). */
export const APP_ENV = 'development';

/**
 * block-rpc caches blocks for good once they are this deep. The dev chain (anvil) mines a block
 * per transaction and never reorganises by itself, so the production default (64) would leave
 * every block of a young dev chain uncached; 2 lets `npm start` exercise the cache of final blocks
 * as production does. Only a manual `evm_revert`/`anvil_reorg` deeper than this would show stale
 * blocks (until block-rpc restarts: its dev cache is in process). BLOCK_FINALITY_DEPTH overrides.
 */
export const DEV_BLOCK_FINALITY_DEPTH = '2';

export interface StackAddresses {
  chainUrl: string;
  chainId: number;
  didRegistryAddress: string;
  /** Port of each upstream service, by name. */
  ports: Record<string, number>;
  /** Port of each process's separate metrics listener (upstreams and the gateway), by name. */
  metricsPorts: Record<string, number>;
  /** Port of the internal API listener of each service that has one (INTERNAL_UPSTREAMS). */
  internalPorts: Record<string, number>;
  /** The internal API's tokens, one per pair of services: random for each start of the stack. */
  internalTokens: InternalTokens;
}

/** What serviceEnv needs of the stack's settings (tools/dev's DevSettings is one). */
export interface WiringSettings {
  /** DATA_DIR of every app. */
  dataDir: string;
  /** Where clients reach the gateway: PUBLIC_URL, the API documents' server URL. */
  publicUrl: string;
  logLevel: string;
  /** Further variables every app gets (REDIS_URL, DATABASE_URL, …); they override the defaults. */
  passThrough: Record<string, string>;
  /** APP_ENV; development (APP_ENV above) by default. */
  appEnv?: 'development' | 'test';
}

export const serviceUrl = (port: number): string => `http://127.0.0.1:${port}`;

/**
 * The whole environment of one service process but PATH and HOME (AppProcess adds those): built
 * from scratch, so that nothing of the parent's environment (NODE_OPTIONS of a test runner,
 * credentials) leaks into the services.
 */
export function serviceEnv(
  settings: WiringSettings,
  stack: StackAddresses,
  name: string,
  port: number,
): Record<string, string> {
  const metricsPort = stack.metricsPorts[name];
  if (metricsPort === undefined) throw new Error(`no metrics port chosen for ${name}`);
  const env: Record<string, string> = {
    APP_ENV: settings.appEnv ?? APP_ENV,
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    // The API documents name the gateway's URL as their server, never a request's Host header.
    PUBLIC_URL: settings.publicUrl,
    // The services trust the gateway's hop (on loopback here) to report the client address; the
    // gateway itself trusts no proxy (nothing stands in front of it in the dev stack).
    ...(name === GATEWAY ? {} : { TRUST_PROXY: 'loopback' }),
    DATA_DIR: settings.dataDir,
    LOG_LEVEL: settings.logLevel,
    ETH_RPC_URL: stack.chainUrl,
    CHAIN_ID: String(stack.chainId),
    DID_REGISTRY_ADDRESS: stack.didRegistryAddress,
    BLOCK_FINALITY_DEPTH: DEV_BLOCK_FINALITY_DEPTH,
    ...settings.passThrough,
  };
  // Only the tokens of the calls this service makes and answers (auth-service never gets the
  // token of token-rpc's signer), as in production.
  Object.assign(env, internalTokenEnv(name, stack.internalTokens));
  const internalPort = stack.internalPorts[name];
  if (internalPort !== undefined) env.INTERNAL_PORT = String(internalPort);
  for (const { name, urlVariable } of UPSTREAMS) {
    const upstreamPort = stack.ports[name];
    if (upstreamPort === undefined) throw new Error(`no port chosen for ${name}`);
    env[urlVariable] = serviceUrl(upstreamPort);
  }
  for (const { name, internalUrlVariable } of INTERNAL_UPSTREAMS) {
    const port = stack.internalPorts[name];
    if (port === undefined) throw new Error(`no internal port chosen for ${name}`);
    env[internalUrlVariable] = serviceUrl(port);
  }
  return env;
}
