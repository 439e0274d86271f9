import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withOwnCpu } from './cpu-per-op.js';
import { FlowSteps, gatewayFetch, toGateway } from './scenario-sd-jwt-issuance.js';

describe('the EU wallet scenarios’ helpers (12 presentation-verify, 13 sd-jwt-issuance)', () => {
  it('sends what names PUBLIC_URL to the gateway, anything else where it points', () => {
    const pub = 'http://localhost:8080';
    const gw = 'http://127.0.0.1:8080';
    expect(toGateway(pub, gw, `${pub}/v2/did/oid4vci/nonce`)).toBe(`${gw}/v2/did/oid4vci/nonce`);
    expect(toGateway(pub, gw, 'https://issuer.example/x')).toBe('https://issuer.example/x');
  });

  it('the wallet’s fetch reaches the gateway for PUBLIC_URL and counts its requests', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { fetch: send, counter } = gatewayFetch('http://public.example', gateway);
      expect(await (await send('http://public.example/a?b=1')).text()).toBe('ok');
      await (await send(new Request('http://public.example/c', { method: 'POST' }))).text();
      expect(seen).toEqual(['GET /a?b=1', 'POST /c']);
      expect(counter.requests).toBe(2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('sums each step of many flows into its mean and percentiles, in the order given', () => {
    const steps = new FlowSteps(['first', 'second']);
    for (let i = 1; i <= 100; i += 1) steps.add([i, 2]);
    expect(steps.text()).toBe('first 50.5 ms (p50 51, p99 100); second 2 ms (p50 2, p99 2)');
    expect(new FlowSteps(['none']).text()).toBe('none 0 ms (p50 0, p99 0)');
  });

  it('divides this process’s CPU time by the operations of a figure', async () => {
    const { figure, ms } = await withOwnCpu(async () => {
      // Busy until this process has used 30 ms of CPU (however loaded the machine is).
      const start = process.cpuUsage();
      const used = () => {
        const { user, system } = process.cpuUsage(start);
        return (user + system) / 1000;
      };
      while (used() < 30) {
        // busy
      }
      return { label: 'x', rate: 1, p50: 0, p99: 0, meanMs: 0, errors: 0, total: 3 };
    });
    expect(figure.total).toBe(3);
    expect(ms).toBeGreaterThanOrEqual(10);
    expect(ms).toBeLessThan(20);
  });
});
