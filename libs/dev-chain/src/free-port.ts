import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports handed out: below the kernel's ephemeral range, from here up. */
const LOWEST_PORT = 15_000;
/**
 * The range is cut into this many slices: jest worker n (JEST_WORKER_ID) takes its ports from
 * slice 1 + (n - 1) % (SLICES - 1), every other process (scripts, npm start, the jest parent)
 * from slice 0. Two test files running at once then never pick the same port, so a service a
 * test stops and starts again on its port (the resilience faults, the dev stack's restarts)
 * cannot lose it to another worker meanwhile.
 */
const SLICES = 8;
/** Ports this process handed out already (two callers never get the same one from us). */
const handedOut = new Set<number>();

/**
 * The first port of the kernel's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range,
 * usually 32768): outgoing connections take their local ports from that range. Read once.
 */
let ephemeralLowCache: number | undefined;
function ephemeralLow(): number {
  if (ephemeralLowCache === undefined) {
    let low = 32_768;
    try {
      const read = Number(
        readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
      );
      if (Number.isInteger(read) && read > LOWEST_PORT + 1000) low = read;
    } catch {
      // not Linux: the usual default
    }
    ephemeralLowCache = low;
  }
  return ephemeralLowCache;
}

/** This process's slice of the port range (see SLICES). */
function slice(): number {
  // The one environment read of this file: jest tells each worker its number (test tooling).
  // eslint-disable-next-line no-restricted-properties
  const worker = Number(process.env.JEST_WORKER_ID);
  return Number.isInteger(worker) && worker > 0 ? 1 + ((worker - 1) % (SLICES - 1)) : 0;
}

/** Binds `port` (0: any) on `host` and closes it again; resolves the port bound. */
function tryBind(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port that was free a moment ago on `host` (another process may take it meanwhile).
 * Chosen at random BELOW the kernel's ephemeral range: a port the kernel hands out for `listen(0)`
 * comes from the range every outgoing connection (to Redis, PostgreSQL, the chain) also takes its
 * local port from, so between this call and the service's own listen a client socket could take
 * it (EADDRINUSE in CI under load); below the range only another listener can, and each jest
 * worker has a slice of its own (SLICES).
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const size = Math.floor((ephemeralLow() - LOWEST_PORT) / SLICES);
  const first = LOWEST_PORT + slice() * size;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = first + Math.floor(Math.random() * size);
    if (handedOut.has(port)) continue;
    try {
      await tryBind(host, port);
      handedOut.add(port);
      return port;
    } catch {
      // taken: try another
    }
  }
  return tryBind(host, 0);
}

/** Resolves when nothing listens on host:port (we could bind it), else rejects with EADDRINUSE. */
export function assertPortFree(host: string, port: number): Promise<void> {
  return tryBind(host, port).then(() => undefined);
}
