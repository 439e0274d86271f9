import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { landingRouter } from './landing-router.js';

async function get(appEnv: string) {
  const app = express();
  app.use(landingRouter({ APP_ENV: appEnv } as never));
  const server = app.listen(0);
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text: await res.text(),
    };
  } finally {
    server.close();
  }
}

describe('GET / on the gateway', () => {
  it('is a small page in development: docs, demo, health and the demo login', async () => {
    const page = await get('development');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/text\/html/);
    for (const link of ['href="/docs"', 'href="/demo"', 'href="/health/ready"', 'favicon']) {
      expect(page.text).toContain(link);
    }
    expect(page.text).toContain('demo-password');
  });

  it('is a JSON index in production (no demo, no demo credentials)', async () => {
    const index = await get('production');
    expect(index.status).toBe(200);
    expect(index.type).toMatch(/application\/json/);
    const body = JSON.parse(index.text) as {
      docs: { html: string; openapi: string };
      apis: unknown[];
    };
    expect(body.docs).toMatchObject({ html: '/docs', openapi: '/openapi.json' });
    expect(body.apis).toHaveLength(5);
    expect(index.text).not.toMatch(/demo/);
  });
});
