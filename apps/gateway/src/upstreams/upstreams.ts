import type { GatewayConfig } from '../config.js';

/** REST upstreams answer errors in the REST shape; JSON-RPC upstreams in a JSON-RPC envelope. */
export type UpstreamProtocol = 'rest' | 'jsonrpc';

export interface Upstream {
  /** Service name, used in error messages, readiness checks, logs and metrics. */
  name: string;
  /** Base URL; the incoming path is appended unchanged. */
  url: string;
  protocol: UpstreamProtocol;
  /** Express route paths the gateway forwards to this upstream. */
  paths: string[];
}

/** The routing table of the gateway (contract §1): one entry per upstream service. */
export function upstreamsFrom(
  config: Pick<
    GatewayConfig,
    'AUTH_SERVICE_URL' | 'DID_SERVICE_URL' | 'TOKEN_RPC_URL' | 'BLOCK_RPC_URL'
  >,
): Upstream[] {
  return [
    {
      name: 'auth-service',
      url: config.AUTH_SERVICE_URL,
      protocol: 'rest',
      paths: ['/v2/auth/*rest'],
    },
    {
      name: 'did-service',
      url: config.DID_SERVICE_URL,
      protocol: 'rest',
      paths: ['/v2/did/*rest'],
    },
    {
      name: 'token-rpc',
      url: config.TOKEN_RPC_URL,
      protocol: 'jsonrpc',
      paths: ['/token', '/token/erc20'],
    },
    { name: 'block-rpc', url: config.BLOCK_RPC_URL, protocol: 'jsonrpc', paths: ['/block'] },
  ];
}
