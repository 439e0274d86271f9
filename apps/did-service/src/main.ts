import { runMain } from '@itp/service-kit';
import { buildApp } from './app.js';

await runMain(buildApp);
