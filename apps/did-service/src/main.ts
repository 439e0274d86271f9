import { runMain } from '@itp/service-kit';
import { buildApp } from './app.js';
import { configSchema } from './config.js';

await runMain({ name: 'did-service', schema: configSchema, env: process.env, build: buildApp });
