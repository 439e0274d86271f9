/**
 * A whole stack of the product on one machine, as Kubernetes would run it: any number of replicas
 * of each service behind one gateway, on the Redis, PostgreSQL and chain the caller gives
 * (startStack). Used by the end-to-end setups (e2e/src/gateway-setup.ts); the caller starts and stops the
 * infrastructure, the stack only its app processes.
 *
 * Every replica of a service shares one Redis key prefix and the one database with the others;
 * the gateway balances over the list of a service's instances
 * (`AUTH_SERVICE_URL=http://a,http://b`); the services reach each other (public and internal
 * API) through one TCP balancer per service (tcp-balancer.ts), as through a Kubernetes Service
 * address. All processes start at the same moment.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  newEcSigningJwk,
  newInternalTokens,
  newRsaSigningJwk,
  type InternalTokens,
} from '@itp/crypto';
import { DEV_CHAIN, deployDidRegistry, freePort } from '@itp/dev-chain';
import { AppProcess, REPO_ROOT, type AppOutput } from './app-process.js';
import { bundleServices, type ServiceBundles } from './bundle-apps.js';
import { guard } from './reaper.js';
import { startTcpBalancer, type TcpBalancer } from './tcp-balancer.js';
import {
  APP_NAMES,
  GATEWAY,
  INTERNAL_UPSTREAMS,
  UPSTREAMS,
  serviceEnv,
  serviceUrl,
  type StackAddresses,
  type UpstreamName,
  type WiringSettings,
} from './wiring.js';

/** The stores and the chain of a stack, started and stopped by the caller. */
export interface StackInfra {
  redisUrl: string;
  /** One database for every service (each migrates its own tables). */
  databaseUrl: string;
  chainUrl: string;
  /** The ERC-1056 registry on that chain; deployed by account #0 of the dev chain when absent. */
  didRegistryAddress?: string;
}

export interface StackOptions {
  /** How many instances of each upstream service run; 1 each by default (the gateway runs once). */
  replicas?: Partial<Record<UpstreamName, number>>;
  infra: StackInfra;
  /**
   * `development` (the default: the demo user and site, dev funding of new addresses, secrets
   * derived in the data folder) or `test` (production behaviour; the stack generates the secrets).
   */
  appEnv?: 'development' | 'test';
  /** Variables per app (by app name), over those the stack sets. */
  env?: Partial<Record<UpstreamName | typeof GATEWAY, Record<string, string>>>;
  /** The apps' esbuild bundles (the default: faster to start) or their sources through tsx. */
  run?: 'bundle' | 'source';
  /**
   * One log file per process here (`<app>-<index>.log`, `gateway.log`), at LOG_LEVEL info;
   * without it the processes write to this process's stdout and stderr at LOG_LEVEL warn.
   */
  logDir?: string;
  /** LOG_LEVEL of every app (see logDir for the default). */
  logLevel?: string;
  /** How long every process has to answer GET /health/ready with 200; 120 s by default. */
  readyTimeoutMs?: number;
  /**
   * Each app's Redis keys start with `<keyPrefix><app>:`; a unique prefix by default (stacks may
   * share one Redis). `''` leaves the apps' own default prefixes, as in production (a Redis of
   * the stack's own).
   */
  keyPrefix?: string;
  /** The internal API's tokens (one per pair of services); fresh random ones by default. */
  internalTokens?: InternalTokens;
  /**
   * The host of PUBLIC_URL and of `gatewayUrl` (the gateway listens on 127.0.0.1 either way);
   * 127.0.0.1 by default. A DNS name (`localhost`) turns on the development PKI, which needs one:
   * the verifier's `x509_san_dns` client identifier and the SD-JWT VC issuer's certificate.
   */
  publicHost?: string;
}

export interface Replica {
  name: string;
  /** 0-based index among the service's replicas. */
  index: number;
  url: string;
  process: AppProcess;
}

export interface Stack {
  gatewayUrl: string;
  chainUrl: string;
  databaseUrl: string;
  didRegistryAddress: string;
  /** Every upstream instance, by service name, in index order. */
  replicas: Record<string, Replica[]>;
  gateway: AppProcess;
  /** The internal API's tokens the services were given. */
  internalTokens: InternalTokens;
  /** SIGKILL one replica (a crash), and wait until it is gone. */
  kill(replica: Replica): Promise<void>;
  /** Stops every process of the stack (not the infrastructure) and removes its files. */
  stop(): Promise<void>;
}

/** Time the processes get to drain and close after SIGTERM at stop. */
const STOP_GRACE_MS = 15_000;

/** The deployment secrets APP_ENV=test requires, fresh for this stack. */
function testSecrets(): Record<string, Record<string, string>> {
  return {
    'auth-service': { JWT_SIGNING_KEYS: JSON.stringify([newEcSigningJwk(), newRsaSigningJwk()]) },
    'did-service': { DID_KMS_SECRET_KEY: randomBytes(32).toString('hex') },
    'token-rpc': { WALLET_MASTER_KEY: randomBytes(32).toString('hex') },
  };
}

async function chainIdOf(chainUrl: string): Promise<number> {
  const res = await fetch(chainUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: string };
  if (!body.result) throw new Error(`${chainUrl} did not tell its chain id`);
  return Number(body.result);
}

/**
 * Starts the apps of a stack (see the top of this file) and resolves once every process answers
 * GET /health/ready with 200; on failure stops what it started and rejects.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { infra } = options;
  const processes: AppProcess[] = [];
  const balancers: TcpBalancer[] = [];
  let bundles: ServiceBundles | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-stack-'));
  // The apps end with their caller (their IPC channel closes); their data folder is the reaper's.
  const guarded = guard({ label: 'stack data', dir: dataDir });
  const stop = async (): Promise<void> => {
    await Promise.all(processes.map((p) => p.close(STOP_GRACE_MS)));
    for (const b of balancers) await b.close();
    bundles?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    guarded.release();
  };
  try {
    const run = options.run ?? 'bundle';
    const bundling = run === 'bundle' ? bundleServices(REPO_ROOT, APP_NAMES) : undefined;
    bundling?.catch(() => undefined); // awaited below
    const [chainId, didRegistryAddress] = await Promise.all([
      chainIdOf(infra.chainUrl),
      infra.didRegistryAddress ??
        deployDidRegistry(infra.chainUrl, DEV_CHAIN.devOnlyAccount0.privateKey),
    ]);
    bundles = await bundling;
    const prefix = options.keyPrefix ?? `stack:${randomBytes(6).toString('hex')}:`;
    if (options.logDir) mkdirSync(options.logDir, { recursive: true });

    const plan: Array<{ name: string; index: number; port: number; internalPort: number }> = [];
    for (const { name } of UPSTREAMS) {
      for (let index = 0; index < (options.replicas?.[name] ?? 1); index += 1) {
        plan.push({ name, index, port: await freePort(), internalPort: await freePort() });
      }
    }
    const gatewayPort = await freePort();
    const urlsOf = (name: string): string[] =>
      plan.filter((p) => p.name === name).map((p) => serviceUrl(p.port));
    // One address per service in front of all its replicas (a Kubernetes Service), so every
    // replica of a caller reaches every replica of the callee (and a killed one is skipped).
    const balanced: Record<string, string> = {};
    for (const { name } of UPSTREAMS) {
      const balancer = await startTcpBalancer(urlsOf(name));
      balancers.push(balancer);
      balanced[name] = balancer.url;
    }
    // The internal listeners likewise: one balanced address per service (its Service's port).
    const balancedInternal: Record<string, string> = {};
    for (const { name } of INTERNAL_UPSTREAMS) {
      const balancer = await startTcpBalancer(
        plan.filter((p) => p.name === name).map((p) => serviceUrl(p.internalPort)),
      );
      balancers.push(balancer);
      balancedInternal[name] = balancer.url;
    }
    const stack: StackAddresses = {
      chainUrl: infra.chainUrl,
      chainId,
      didRegistryAddress,
      ports: Object.fromEntries(UPSTREAMS.map(({ name }) => [name, 0])),
      // Any free port: several instances of one service on one host.
      metricsPorts: Object.fromEntries(APP_NAMES.map((name) => [name, 0])),
      internalPorts: Object.fromEntries(INTERNAL_UPSTREAMS.map(({ name }) => [name, 0])),
      internalTokens: options.internalTokens ?? newInternalTokens(),
    };
    const appEnv = options.appEnv ?? 'development';
    const publicUrl = `http://${options.publicHost ?? '127.0.0.1'}:${gatewayPort}`;
    const settings: WiringSettings = {
      dataDir,
      publicUrl,
      logLevel: options.logLevel ?? (options.logDir ? 'info' : 'warn'),
      passThrough: { REDIS_URL: infra.redisUrl, DATABASE_URL: infra.databaseUrl },
      appEnv,
    };
    const secrets = appEnv === 'test' ? testSecrets() : {};

    const envFor = (name: string, port: number, internalPort?: number): Record<string, string> => {
      const env = serviceEnv(settings, stack, name, port);
      if (prefix) env.REDIS_KEY_PREFIX = `${prefix}${name}:`;
      if (internalPort !== undefined && env.INTERNAL_PORT !== undefined) {
        env.INTERNAL_PORT = String(internalPort);
      }
      for (const { name: upstream, urlVariable } of UPSTREAMS) {
        // The gateway balances over all instances itself; a service calls the balanced address.
        env[urlVariable] = name === GATEWAY ? urlsOf(upstream).join(',') : balanced[upstream]!;
      }
      for (const { name: upstream, internalUrlVariable } of INTERNAL_UPSTREAMS) {
        env[internalUrlVariable] = balancedInternal[upstream]!;
      }
      const own = options.env?.[name as UpstreamName | typeof GATEWAY];
      return { ...env, ...secrets[name], ...own };
    };
    const newProcess = (name: string, label: string, port: number, env: Record<string, string>) => {
      const output: AppOutput = options.logDir
        ? { logFile: join(options.logDir, `${label.replace('#', '-')}.log`) }
        : 'inherit';
      const app = new AppProcess({
        name,
        label,
        port,
        env,
        output,
        run: bundles ? { bundle: bundles.entry(name) } : 'source',
      });
      processes.push(app);
      app.start();
      return app;
    };

    const replicas: Record<string, Replica[]> = {};
    for (const { name, index, port, internalPort } of plan) {
      const app = newProcess(name, `${name}#${index}`, port, envFor(name, port, internalPort));
      (replicas[name] ??= []).push({ name, index, url: app.url, process: app });
    }
    const gateway = newProcess(GATEWAY, GATEWAY, gatewayPort, envFor(GATEWAY, gatewayPort));
    const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
    await Promise.all(processes.map((p) => p.waitReady('/health/ready', deadline)));

    return {
      gatewayUrl: publicUrl,
      chainUrl: infra.chainUrl,
      databaseUrl: infra.databaseUrl,
      didRegistryAddress,
      replicas,
      gateway,
      internalTokens: stack.internalTokens,
      kill: (replica) => replica.process.kill(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
