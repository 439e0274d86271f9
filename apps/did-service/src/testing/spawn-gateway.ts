import { spawnApp, type SpawnedApp } from '@itp/testing';

/**
 * The gateway as its own process (apps never import apps), routing /v2/did/* to `didUrl` (and
 * /v2/auth/* to `authUrl`); ready once /health/live answers (its other upstreams stay down).
 */
export function spawnGateway(upstreams: { didUrl: string; authUrl?: string }): Promise<SpawnedApp> {
  const unused = 'http://127.0.0.1:9';
  return spawnApp(
    'gateway',
    {
      APP_ENV: 'test',
      AUTH_SERVICE_URL: upstreams.authUrl ?? unused,
      DID_SERVICE_URL: upstreams.didUrl,
      TOKEN_RPC_URL: unused,
      BLOCK_RPC_URL: unused,
    },
    { waitFor: 'live' },
  );
}
