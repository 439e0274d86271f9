import type { ReadinessCheck } from '@itp/service-kit';
import type { ChainClient } from './chain-client.js';

/** The readiness check a service registers for its chain node (`HttpService.addReadinessCheck`). */
export function chainReadinessCheck(client: ChainClient): ReadinessCheck {
  return { name: 'chain', check: () => client.ping() };
}
