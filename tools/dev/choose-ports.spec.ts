import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { choosePorts } from './choose-ports.js';

describe('choosePorts', () => {
  it('gives distinct free ports below the ephemeral range, leaving out the excluded ones', async () => {
    const [excluded] = await choosePorts(1);
    const ports = await choosePorts(5, [excluded as number]);
    expect(new Set(ports).size).toBe(5);
    expect(ports).not.toContain(excluded);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_000);
      // Free: we can listen on it.
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
