import { spawnApp, type SpawnedApp } from '@itp/testing';

export type SpawnedService = SpawnedApp;

/**
 * Another app of the repository as its own process (apps never import apps), ready once
 * /health/live answers — the shared helper of @itp/testing.
 */
export function spawnService(app: string, env: Record<string, string>): Promise<SpawnedService> {
  return spawnApp(app, env, { waitFor: 'live' });
}
