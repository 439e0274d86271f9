import { authApi } from './auth/auth-api.js';
import { blockApi } from './block/block-api.js';
import { didApi } from './did/did-api.js';
import { erc20Api } from './erc20/erc20-api.js';
import { HttpTransport } from './http/http-transport.js';
import { RpcEndpoint } from './jsonrpc/rpc-endpoint.js';
import { tokenApi } from './token/token-api.js';
import type { ClientOptions, ItpClient } from './types.js';

function clientOn(http: HttpTransport): ItpClient {
  const token = new RpcEndpoint(http, '/token');
  const erc20 = new RpcEndpoint(http, '/token/erc20');
  const block = new RpcEndpoint(http, '/block');
  return {
    auth: authApi(http),
    did: didApi(http),
    token: tokenApi(token, erc20, block),
    erc20: erc20Api(erc20),
    block: blockApi(block),
    withToken: (jwt) => clientOn(http.withToken(jwt)),
  };
}

/**
 * A client for the gateway at `options.baseUrl`: `auth`, `did`, `token`, `erc20` and `block`.
 * Stateless apart from the bearer JWT it was given (`options.token`, or `withToken`).
 */
export function createClient(options: ClientOptions): ItpClient {
  return clientOn(new HttpTransport(options, options.token));
}
