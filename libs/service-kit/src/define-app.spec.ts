import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { z } from 'zod';
import { baseConfigShape, loadConfig } from './config.js';
import { defineApp } from './define-app.js';
import { HttpService } from './http-service.js';

const schema = z.object({ ...baseConfigShape, PORT: baseConfigShape.PORT.default(0) });
const config = loadConfig(schema, { HOST: '127.0.0.1' });
const logger = pino({ level: 'silent' });

describe('defineApp', () => {
  it('carries its name and schema for runMain', () => {
    const buildApp = defineApp(
      'demo',
      schema,
      async (c, l) => new HttpService({ name: 'demo', config: c, logger: l }),
    );
    expect(buildApp.appName).toBe('demo');
    expect(buildApp.configSchema).toBe(schema);
  });

  it('closes what a failed start opened (a failing migration never leaks the database)', async () => {
    const closed: string[] = [];
    const buildApp = defineApp('demo', schema, async (_c, _l, scope) => {
      await scope.open(
        'database',
        () => 'db',
        () => closed.push('database'),
      );
      await scope.open(
        'redis',
        () => 'kv',
        () => closed.push('redis'),
      );
      throw new Error('migration failed');
    });
    await expect(buildApp(config, logger)).rejects.toThrow('migration failed');
    expect(closed).toEqual(['redis', 'database']);
  });

  it('closes the resources when the service shuts down, after the server stopped', async () => {
    const events: string[] = [];
    const buildApp = defineApp('demo', schema, async (c, l, scope) => {
      await scope.open(
        'database',
        () => 'db',
        () => events.push('database closed'),
      );
      const service = new HttpService({ name: 'demo', config: c, logger: l });
      service.app.get('/x', (_req, res) => {
        events.push('request');
        res.json({ ok: true });
      });
      return service;
    });
    const service = await buildApp(config, logger);
    const { url } = await service.listen();
    expect((await fetch(`${url}/x`)).status).toBe(200);
    await service.close();
    expect(events).toEqual(['request', 'database closed']);
  });
});
