import { spawnService, type SpawnedService } from './spawn-service.js';

/** The gateway as its own process, routing /v2/did/* to `didUrl` (and /v2/auth/* to `authUrl`). */
export function spawnGateway(upstreams: {
  didUrl: string;
  authUrl?: string;
}): Promise<SpawnedService> {
  const unused = 'http://127.0.0.1:9';
  return spawnService('gateway', {
    APP_ENV: 'test',
    AUTH_SERVICE_URL: upstreams.authUrl ?? unused,
    DID_SERVICE_URL: upstreams.didUrl,
    TOKEN_RPC_URL: unused,
    BLOCK_RPC_URL: unused,
  });
}
