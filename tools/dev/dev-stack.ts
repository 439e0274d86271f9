import { newInternalTokens } from '@itp/crypto';
import { DEV_CHAIN, assertPortFree } from '@itp/dev-chain';
import {
  AppProcess,
  GATEWAY,
  INTERNAL_UPSTREAMS,
  UPSTREAMS,
  bundleServices,
  serviceEnv,
  type ServiceBundles,
  type StackAddresses,
} from '@itp/harness';
import { formatBanner } from './banner.js';
import { choosePorts } from './choose-ports.js';
import { startDevChain, type DevChain } from './dev-chain.js';
import type { DevSettings } from './dev-settings.js';
import { jobAncestors, watchJob } from './job-watch.js';

/**
 * A service that ends once the stack is up is restarted after this delay, doubling per restart
 * up to RESTART_MAX_DELAY_MS, back to the first after it ran RESTART_RESET_MS (a supervisor: one
 * crashed service never stops the others, and a crash loop does not spin).
 */
const RESTART_FIRST_DELAY_MS = 1_000;
const RESTART_MAX_DELAY_MS = 30_000;
const RESTART_RESET_MS = 60_000;

/** The wait before the n-th restart in a row (n from 1): 1, 2, 4, 8, 16, 30, 30 … s. */
export function restartDelayMs(restartsInARow: number): number {
  return Math.min(
    RESTART_FIRST_DELAY_MS * 2 ** Math.max(restartsInARow - 1, 0),
    RESTART_MAX_DELAY_MS,
  );
}

/** Time the services get to drain and close after SIGTERM (their own default is 10 s). */
const SERVICE_GRACE_MS = 15_000;
/**
 * One Ctrl-C can reach this process twice: from the terminal (the whole process group gets it)
 * and relayed by npm and tsx. Only a signal this long after the first one forces the stop.
 */
const REPEAT_SIGNAL_MS = 1_000;

const say = (message: string): void => console.log(`[dev] ${message}`);
const complain = (message: string): void => console.error(`[dev] ${message}`);

/**
 * Runs the dev stack in the foreground: the chain, the four services, then the gateway. Once it
 * is up, a service that ends is restarted with backoff and the log says so (restartDelayMs).
 * Exits the process: 0 after a Ctrl-C (SIGINT/SIGTERM/SIGHUP) stopped everything, 1 when
 * anything failed to start or the chain died, 130 when a second Ctrl-C forced the stop.
 */
export async function runDevStack(settings: DevSettings): Promise<void> {
  const startedAt = Date.now();
  const services: AppProcess[] = [];
  let chainStarting: Promise<DevChain> | undefined;
  let chain: DevChain | undefined;
  let bundling: Promise<ServiceBundles> | undefined;
  let bundles: ServiceBundles | undefined;
  let stopping: Promise<never> | undefined;
  let firstSignalAt = 0;
  /** Set once every service answered ready: from then on an ended service is restarted. */
  let up = false;

  const shutdown = (code: number, problem?: string): Promise<never> => {
    if (stopping) return stopping;
    if (problem) complain(`${problem}; stopping everything`);
    stopping = (async () => {
      await Promise.all(services.map((service) => service.stop(SERVICE_GRACE_MS)));
      (await bundling?.catch(() => undefined))?.remove();
      const startedChain = await chainStarting?.catch(() => undefined);
      await startedChain?.anvil.stop();
      if (startedChain) say(`stopped; chain state saved to ${startedChain.stateFile}`);
      process.exit(code);
    })();
    return stopping;
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stopping) {
      firstSignalAt = Date.now();
      say(`${signal}: stopping the services, then the chain (Ctrl-C again to force)`);
      void shutdown(0);
      return;
    }
    if (firstSignalAt !== 0 && Date.now() - firstSignalAt < REPEAT_SIGNAL_MS) return;
    complain('forced stop: killing everything; the chain state of this session is lost');
    for (const service of services) void service.kill();
    chain?.anvil.process.kill('SIGKILL');
    bundles?.remove();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  watchJob(jobAncestors(), (pid) => {
    if (!stopping) {
      say(`process ${pid} of the npm start job ended: stopping the services, then the chain`);
      void shutdown(0);
    }
  });

  /** Watches a service, and starts it again (same port, same environment) when it ends. */
  const watch = (service: AppProcess, restartsInARow = 0): void => {
    const startedAt = Date.now();
    void service.whenEnded().then((exit) => {
      if (stopping) return;
      if (!up) {
        void shutdown(1, `${service.name} ${exit.description}`);
        return;
      }
      const inARow = Date.now() - startedAt >= RESTART_RESET_MS ? 1 : restartsInARow + 1;
      const delay = restartDelayMs(inARow);
      complain(
        `${service.name} ${exit.description}; restarting it in ${delay / 1000} s (restart ${inARow} in a row)`,
      );
      setTimeout(() => {
        if (stopping) return;
        service.start();
        watch(service, inARow);
        void service.waitReady('/health/ready', Date.now() + settings.readyTimeoutMs).then(
          () => say(`${service.name} is back (${service.url})`),
          () => undefined,
        );
      }, delay).unref();
    });
  };

  try {
    await assertPortFree('127.0.0.1', settings.gatewayPort).catch(() => {
      throw new Error(`port ${settings.gatewayPort} is in use: set PORT to a free port`);
    });
    say(`APP_ENV=development; data folder ${settings.dataDir}; starting the dev chain`);
    // The chain starts while esbuild bundles the services (both run outside this process).
    chainStarting = startDevChain(settings.dataDir);
    bundling = bundleServices(settings.repoRoot, [...UPSTREAMS.map((u) => u.name), GATEWAY]);
    bundling.catch(() => undefined); // awaited below, after the chain
    chain = await chainStarting;
    if (chain.notice) say(`chain state: ${chain.notice}`);
    chain.anvil.process.once('exit', (code, signal) => {
      if (!stopping) void shutdown(1, `the dev chain (anvil) ended (code ${code}, ${signal})`);
    });

    const built = await bundling;
    bundles = built;
    const names = [...UPSTREAMS.map((u) => u.name), GATEWAY];
    const ports = await choosePorts(UPSTREAMS.length + names.length + INTERNAL_UPSTREAMS.length, [
      settings.gatewayPort,
    ]);
    const upstreamPorts = ports.slice(0, UPSTREAMS.length);
    const metricsPorts = ports.slice(UPSTREAMS.length, UPSTREAMS.length + names.length);
    const internalPorts = ports.slice(UPSTREAMS.length + names.length);
    const stack: StackAddresses = {
      chainUrl: chain.anvil.url,
      chainId: DEV_CHAIN.chainId,
      didRegistryAddress: chain.didRegistryAddress,
      ports: Object.fromEntries(UPSTREAMS.map(({ name }, i) => [name, upstreamPorts[i] ?? 0])),
      metricsPorts: Object.fromEntries(names.map((name, i) => [name, metricsPorts[i] ?? 0])),
      internalPorts: Object.fromEntries(
        INTERNAL_UPSTREAMS.map(({ name }, i) => [name, internalPorts[i] ?? 0]),
      ),
      internalTokens: newInternalTokens(),
    };
    const start = (name: string, port: number): AppProcess => {
      const service = new AppProcess({
        name,
        port,
        env: serviceEnv(settings, stack, name, port),
        run: { bundle: built.entry(name) },
        output: 'inherit',
        repoRoot: settings.repoRoot,
      });
      services.push(service);
      service.start();
      watch(service);
      return service;
    };

    if (stopping) return;
    // All at once (two cores boot five processes faster than one after the other); the gateway
    // is last, and ready only once its upstreams are.
    const deadline = Date.now() + settings.readyTimeoutMs;
    const upstreams = UPSTREAMS.map(({ name }) => start(name, stack.ports[name] ?? 0));
    const gateway = start(GATEWAY, settings.gatewayPort);
    say(`starting ${[...UPSTREAMS.map((u) => u.name), GATEWAY].join(', ')}`);
    await Promise.all(upstreams.map((service) => service.waitReady('/health/ready', deadline)));
    await gateway.waitReady('/health/ready', deadline);
    if (stopping) return;
    up = true;
    console.log(
      formatBanner({
        // Where clients reach it (PUBLIC_URL, http://localhost:<PORT> by default): the README's URLs.
        gatewayUrl: settings.publicUrl,
        chainUrl: chain.anvil.url,
        chainId: DEV_CHAIN.chainId,
        didRegistryAddress: chain.didRegistryAddress,
        dataDir: settings.dataDir,
        seconds: (Date.now() - startedAt) / 1000,
      }),
    );
  } catch (err) {
    if (!stopping) await shutdown(1, `start failed: ${err instanceof Error ? err.message : err}`);
  }
}
