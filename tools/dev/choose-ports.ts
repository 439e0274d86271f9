import { randomInt } from 'node:crypto';
import { assertPortFree } from '@itp/dev-chain';

/**
 * Below the kernel's ephemeral range (Linux: 32768-60999; macOS and Windows: 49152+), where
 * outgoing connections take their local ports. A service needs a few seconds between being given
 * its port and binding it; a port from the ephemeral range can be lost meanwhile to any
 * connection on a busy machine, one from here only to another listener.
 */
const LOW = 20_000;
const HIGH = 32_000;

/** `count` distinct ports that are free on 127.0.0.1 right now, none of them in `exclude`. */
export async function choosePorts(
  count: number,
  exclude: readonly number[] = [],
): Promise<number[]> {
  const chosen = new Set<number>();
  for (let tries = 0; chosen.size < count; tries++) {
    if (tries > 1000) throw new Error(`no ${count} free ports between ${LOW} and ${HIGH}`);
    const port = randomInt(LOW, HIGH);
    if (chosen.has(port) || exclude.includes(port)) continue;
    const free = await assertPortFree('127.0.0.1', port).then(
      () => true,
      () => false,
    );
    if (free) chosen.add(port);
  }
  return [...chosen];
}
