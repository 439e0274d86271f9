import { runMain } from '@itp/service-kit';
import { buildApp } from './app.js';
import { configSchema } from './config.js';

// runMain: loadConfig(configSchema, process.env) once (a ConfigError is printed to stderr, exit 1),
// build, exitOnSignals, listen.
await runMain({ name: 'gateway', schema: configSchema, env: process.env, build: buildApp });
