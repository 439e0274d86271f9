import { createLogger, loadConfig, type Env } from '@itp/service-kit';
import { closedIfAbandoned } from '@itp/testing/abandoned-starts';
import { buildApp } from '../app.js';

export interface RunningGateway {
  url: string;
  /** The separate metrics listener (`${metricsUrl}/metrics`). */
  metricsUrl: string;
  close(): Promise<void>;
}

/** Builds and starts the gateway on an ephemeral port of 127.0.0.1, quiet, with `env` on top. */
export function startGateway(env: Env): Promise<RunningGateway> {
  // Closed by the jest setup when it finishes after its beforeAll timed out (tools/jest).
  return closedIfAbandoned(startGatewayNow(env));
}

async function startGatewayNow(env: Env): Promise<RunningGateway> {
  const config = loadConfig(buildApp.configSchema, {
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const service = await buildApp(config, createLogger({ name: 'gateway', level: 'silent' }));
  const { url, metricsUrl } = await service.listen();
  return { url, metricsUrl, close: () => service.close() };
}
