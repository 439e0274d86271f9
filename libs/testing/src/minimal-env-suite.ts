import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createLogger,
  loadConfig,
  internalPortFor,
  metricsPortFor,
  type BuildApp,
  type Env,
  type RunningService,
} from '@itp/service-kit';

export interface MinimalEnvSuite {
  /** The app's composition root (apps/<app>/src/app.ts). */
  buildApp: BuildApp;
  /**
   * The README's documented minimum environment, built once before the suite (stores of the test
   * harness, freshly generated strong secrets, stand-in upstreams). Nothing else may be set.
   */
  minimalEnv: () => Promise<Env>;
  /** Undoes what minimalEnv set up (a test database, stand-ins). */
  teardown?: () => Promise<void>;
  /** The documented defaults the config must load with (a subset of the typed config). */
  defaults: Record<string, unknown>;
  /** The documented metrics port (PORT + 1000). */
  metricsPort: number;
  /** The documented internal API port (PORT + 100), for an app with an internal API. */
  internalPort?: number;
  /** Whether each variable of the minimum is required, so that a start without it fails naming it. */
  eachRequired?: boolean;
  /** More checks against the started service. */
  started?: (service: () => RunningService) => void;
}

/**
 * One test per app, the same for all five: load the config from the documented minimum
 * environment only (so a documented default can't silently disappear), refuse to start without
 * any one of its variables, start, answer /health/ready, serve metrics on the separate listener.
 */
export function describeMinimalEnvStart(suite: MinimalEnvSuite): void {
  const { buildApp } = suite;
  const logger = createLogger({ name: buildApp.appName, level: 'silent' });
  let minimalEnv: Env;

  describe(`${buildApp.appName} with only the documented minimum environment`, () => {
    beforeAll(async () => {
      minimalEnv = await suite.minimalEnv();
    });

    afterAll(async () => {
      await suite.teardown?.();
    });

    it('loads the documented defaults', () => {
      const config = loadConfig(buildApp.configSchema, minimalEnv);
      expect(config).toMatchObject({ APP_ENV: 'production', ...suite.defaults });
      expect(metricsPortFor(config)).toBe(suite.metricsPort);
      if (suite.internalPort !== undefined) {
        expect(internalPortFor(config)).toBe(suite.internalPort);
      }
    });

    if (suite.eachRequired ?? true) {
      it('refuses to start without any one of them, naming it', async () => {
        for (const name of Object.keys(minimalEnv)) {
          const start = async () =>
            buildApp(
              loadConfig(buildApp.configSchema, { ...minimalEnv, [name]: undefined }),
              logger,
            );
          await expect(start()).rejects.toThrow(name);
        }
      });
    }

    describe('started', () => {
      let running: RunningService | undefined;
      let close: (() => Promise<void>) | undefined;

      beforeAll(async () => {
        const config = loadConfig(buildApp.configSchema, {
          ...minimalEnv,
          PORT: '0',
          METRICS_PORT: '0',
        });
        const service = await buildApp(config, logger);
        close = () => service.close();
        running = await service.listen();
      });

      afterAll(async () => {
        await close?.();
      });

      const service = (): RunningService => {
        if (!running) throw new Error(`${buildApp.appName} did not start`);
        return running;
      };

      it('answers its self-only readiness (/health/ready/self, what Kubernetes probes) with 200', async () => {
        expect((await fetch(`${service().url}/health/ready/self`)).status).toBe(200);
      });

      it('serves metrics on its own listener, not on the public port', async () => {
        expect(service().metricsUrl).not.toBe(service().url);
        expect((await fetch(`${service().metricsUrl}/metrics`)).status).toBe(200);
        expect((await fetch(`${service().url}/metrics`)).status).toBe(404);
      });

      suite.started?.(service);
    });
  });
}
