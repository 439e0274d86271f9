import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEV_CHAIN,
  deployDidRegistry,
  freePort,
  startAnvil,
  type RunningAnvil,
} from '@itp/dev-chain';
import { newInternalTokens } from '@itp/crypto';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import { bundleServices, type ServiceBundles } from '../dev/bundle-services.js';
import { spawnService, stopServices, type ServiceProcess } from '../dev/service-process.js';
import {
  GATEWAY,
  INTERNAL_UPSTREAMS,
  UPSTREAMS,
  serviceEnv,
  serviceUrl,
  type StackAddresses,
} from '../dev/services.js';
import { waitForReady } from '../dev/wait-ready.js';
import { startTcpBalancer, type TcpBalancer } from './tcp-balancer.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** How many instances of each upstream service run (the gateway runs once). */
export type ReplicaCounts = Record<(typeof UPSTREAMS)[number]['name'], number>;

export interface Replica {
  name: string;
  /** 0-based index among the service's replicas. */
  index: number;
  url: string;
  process: ServiceProcess;
}

export interface ReplicaStack {
  gatewayUrl: string;
  chainUrl: string;
  databaseUrl: string;
  /** Every upstream instance, by service name, in index order. */
  replicas: Record<string, Replica[]>;
  /** SIGKILL one replica (a crash), and wait until it is gone. */
  kill(replica: Replica): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The product with several replicas of each service on one machine, as Kubernetes would run it:
 * every replica of a service shares one Redis (same key prefix) and one PostgreSQL database with
 * the others; the gateway balances over the list of a service's instances
 * (`AUTH_SERVICE_URL=http://a,http://b`). Services reach each other's internal API through one
 * instance each (replica i of did-service → replica i of token-rpc and auth-service), as a
 * Kubernetes Service address would. Development mode (the demo user and site, dev funding of new
 * addresses) on a private anvil chain with the DID registry deployed. All instances of all
 * services are started at the same moment.
 */
export async function startReplicaStack(counts: ReplicaCounts): Promise<ReplicaStack> {
  const processes: ServiceProcess[] = [];
  let chain: RunningAnvil | undefined;
  let db: TestDatabase | undefined;
  let bundles: ServiceBundles | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-replicas-'));
  const balancers: TcpBalancer[] = [];
  const cleanup = async (): Promise<void> => {
    await stopServices(processes, 15_000);
    for (const b of balancers) await b.close();
    bundles?.remove();
    await chain?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const bundling = bundleServices(repoRoot, [...UPSTREAMS.map((u) => u.name), GATEWAY]);
    chain = await startAnvil({ chainId: DEV_CHAIN.chainId });
    const didRegistryAddress = await deployDidRegistry(
      chain.url,
      DEV_CHAIN.devOnlyAccount0.privateKey,
    );
    db = await createTestDatabase();
    bundles = await bundling;
    const prefix = uniquePrefix('replicas');

    const plan: Array<{ name: string; index: number; port: number; internalPort: number }> = [];
    for (const { name } of UPSTREAMS) {
      for (let index = 0; index < counts[name]; index += 1) {
        plan.push({ name, index, port: await freePort(), internalPort: await freePort() });
      }
    }
    const gatewayPort = await freePort();
    const urlsOf = (name: string): string[] =>
      plan.filter((p) => p.name === name).map((p) => serviceUrl(p.port));
    // What a Kubernetes Service is: one address per service in front of all its replicas, so
    // every replica of a caller reaches every replica of the callee (and a killed one is skipped).
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
    const metricsPorts: Record<string, number> = {};
    const stack: StackAddresses = {
      chainUrl: chain.url,
      chainId: DEV_CHAIN.chainId,
      didRegistryAddress,
      ports: Object.fromEntries(UPSTREAMS.map(({ name }) => [name, 0])),
      metricsPorts,
      internalPorts: Object.fromEntries(INTERNAL_UPSTREAMS.map(({ name }) => [name, 0])),
      internalTokens: newInternalTokens(),
    };
    const settings = {
      repoRoot,
      dataDir,
      gatewayPort,
      publicUrl: `http://127.0.0.1:${gatewayPort}`,
      logLevel: 'warn',
      passThrough: { REDIS_URL: testRedisUrl(), DATABASE_URL: db.url },
      readyTimeoutMs: 120_000,
    };

    const envFor = (name: string, port: number, internalPort?: number): Record<string, string> => {
      metricsPorts[name] = 0; // any free port: several instances of one service on one host
      const env = serviceEnv(settings, stack, name, port);
      env.REDIS_KEY_PREFIX = `${prefix}${name}:`;
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
      // The hand-out-once race of web-site logins is what the QR test polls for: no poll
      // interval (its 429 slow_down would answer the concurrent polls before the race).
      if (name === 'auth-service') env.LOGIN_POLL_MIN_INTERVAL_MS = '0';
      return env;
    };

    const replicas: Record<string, Replica[]> = {};
    for (const { name, index, port, internalPort } of plan) {
      const url = serviceUrl(port);
      const process = spawnService(
        `${name}#${index}`,
        url,
        envFor(name, port, internalPort),
        repoRoot,
        bundles.entry(name),
      );
      processes.push(process);
      (replicas[name] ??= []).push({ name, index, url, process });
    }
    const gateway = spawnService(
      GATEWAY,
      serviceUrl(gatewayPort),
      envFor(GATEWAY, gatewayPort),
      repoRoot,
      bundles.entry(GATEWAY),
    );
    processes.push(gateway);
    const deadline = Date.now() + settings.readyTimeoutMs;
    await Promise.all(processes.map((p) => waitForReady(p, deadline)));

    return {
      gatewayUrl: gateway.url,
      chainUrl: chain.url,
      databaseUrl: db.url,
      replicas,
      kill: async (replica) => {
        replica.process.child.kill('SIGKILL');
        await replica.process.exited;
      },
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
