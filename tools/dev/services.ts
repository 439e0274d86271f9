import type { DevSettings } from './dev-settings.js';

/** The services behind the gateway, in start order, with the variable that names each one's URL. */
export const UPSTREAMS = [
  { name: 'block-rpc', urlVariable: 'BLOCK_RPC_URL' },
  { name: 'token-rpc', urlVariable: 'TOKEN_RPC_URL' },
  { name: 'auth-service', urlVariable: 'AUTH_SERVICE_URL' },
  { name: 'did-service', urlVariable: 'DID_SERVICE_URL' },
] as const;

export const GATEWAY = 'gateway';

/** The one explicit switch to development mode (demo user, demo site, funded addresses). */
export const APP_ENV = 'development';

export interface StackAddresses {
  chainUrl: string;
  chainId: number;
  didRegistryAddress: string;
  /** Port of each upstream service, by name. */
  ports: Record<string, number>;
  /** Bearer token of the services' /internal/v1 API: random for each start of the stack. */
  internalApiToken: string;
}

export const serviceUrl = (port: number): string => `http://127.0.0.1:${port}`;

/**
 * The whole environment of one service process: built from scratch, so that nothing of the
 * parent's environment (NODE_OPTIONS of a test runner, credentials) leaks into the services.
 */
export function serviceEnv(
  settings: DevSettings,
  stack: StackAddresses,
  port: number,
): Record<string, string> {
  const env: Record<string, string> = {
    APP_ENV,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: settings.dataDir,
    LOG_LEVEL: settings.logLevel,
    ETH_RPC_URL: stack.chainUrl,
    CHAIN_ID: String(stack.chainId),
    DID_REGISTRY_ADDRESS: stack.didRegistryAddress,
    INTERNAL_API_TOKEN: stack.internalApiToken,
    ...settings.passThrough,
  };
  for (const { name, urlVariable } of UPSTREAMS) {
    const upstreamPort = stack.ports[name];
    if (upstreamPort === undefined) throw new Error(`no port chosen for ${name}`);
    env[urlVariable] = serviceUrl(upstreamPort);
  }
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  return env;
}
