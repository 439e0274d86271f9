import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { assertPortFree, freePort } from './free-port.js';

const ephemeralLow = (): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
};

describe('freePort', () => {
  it('hands out distinct, bindable ports below the ephemeral range', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(15_000);
      expect(port).toBeLessThan(ephemeralLow());
      await assertPortFree('127.0.0.1', port);
    }
  });

  it("takes a jest worker's ports from that worker's own slice of the range", async () => {
    const worker = Number(process.env.JEST_WORKER_ID);
    const slices = 8;
    const size = Math.floor((ephemeralLow() - 15_000) / slices);
    const slice = worker > 0 ? 1 + ((worker - 1) % (slices - 1)) : 0;
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(15_000 + slice * size);
      expect(port).toBeLessThan(15_000 + (slice + 1) * size);
    }
  });

  it('assertPortFree rejects a port something listens on', async () => {
    const server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await expect(assertPortFree('127.0.0.1', port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
