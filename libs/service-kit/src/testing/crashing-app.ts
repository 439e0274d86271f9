/**
 * Test fixture (run-main.spec.ts): an app run by runMain whose code rejects a promise nobody
 * handles (CRASH=rejection) or throws outside any handler (CRASH=exception) once it listens.
 */
import { z } from 'zod';
import { baseConfigShape } from '../config.js';
import { defineApp } from '../define-app.js';
import { HttpService } from '../http-service.js';
import { runMain } from '../run-main.js';

const schema = z.object({ ...baseConfigShape, CRASH: z.enum(['rejection', 'exception']) });

const buildApp = defineApp('crashing-app', schema, async (config, logger) => {
  const service = new HttpService({ name: 'crashing-app', config, logger });
  setTimeout(() => {
    if (config.CRASH === 'rejection') void Promise.reject(new Error('nobody handles this'));
    else throw new Error('thrown outside any handler');
  }, 50);
  return service;
});

await runMain(buildApp);
