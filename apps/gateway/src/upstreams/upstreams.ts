import { splitUpstreamUrls, type GatewayConfig } from '../config.js';

/** REST upstreams answer errors in the REST shape; JSON-RPC upstreams in a JSON-RPC envelope. */
export type UpstreamProtocol = 'rest' | 'jsonrpc';

export interface Upstream {
  /** Service name, used in error messages, readiness checks, logs and metrics. */
  name: string;
  /** Base URL of each replica (at least one); the incoming path is appended unchanged. */
  urls: string[];
  protocol: UpstreamProtocol;
  /**
   * Route paths (express syntax) the gateway forwards to this upstream: `/x/*rest` is every path
   * under `/x/` (at least one character after the slash), anything else one exact path (a
   * trailing slash allowed). Also read by tools/deploy (Gateway API routes).
   */
  paths: string[];
}

/** The routing table of the gateway (docs/api.md §1): one entry per upstream service. */
export function upstreamsFrom(
  config: Pick<
    GatewayConfig,
    'AUTH_SERVICE_URL' | 'DID_SERVICE_URL' | 'TOKEN_RPC_URL' | 'BLOCK_RPC_URL'
  >,
): Upstream[] {
  return [
    {
      name: 'auth-service',
      urls: splitUpstreamUrls(config.AUTH_SERVICE_URL),
      protocol: 'rest',
      // The OpenID Connect issuer <PUBLIC_URL>/v2/auth/oidc's RFC 8414 metadata, its path
      // inserted after the host: that exact path goes to auth-service too.
      paths: ['/v2/auth/*rest', '/.well-known/oauth-authorization-server/v2/auth/oidc'],
    },
    {
      name: 'did-service',
      urls: splitUpstreamUrls(config.DID_SERVICE_URL),
      protocol: 'rest',
      // The OpenID4VCI issuer <PUBLIC_URL>/v2/did/oid4vci publishes its metadata at the
      // well-known paths with the issuer's path inserted after the host (OpenID4VCI 1.0 §12.2.2,
      // RFC 8414 §3): those two exact paths go to did-service too. So does the SD-JWT VC
      // issuer's did:web document (did:web:<PUBLIC_URL host> resolves at /.well-known/did.json).
      paths: [
        '/v2/did/*rest',
        '/.well-known/openid-credential-issuer/v2/did/oid4vci',
        '/.well-known/oauth-authorization-server/v2/did/oid4vci',
        '/.well-known/did.json',
      ],
    },
    {
      name: 'token-rpc',
      urls: splitUpstreamUrls(config.TOKEN_RPC_URL),
      protocol: 'jsonrpc',
      paths: ['/token', '/token/erc20'],
    },
    {
      name: 'block-rpc',
      urls: splitUpstreamUrls(config.BLOCK_RPC_URL),
      protocol: 'jsonrpc',
      paths: ['/block'],
    },
  ];
}
