import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): (address, hop) → trusted. */
export type TrustProxyFn = (address: string, hop: number) => boolean;

/** X-Forwarded-For's addresses, rightmost first, as proxy-addr reads them (spaces and empties dropped). */
function forwardedFor(req: IncomingMessage): string[] {
  const header = req.headers['x-forwarded-for'];
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .reverse();
}

/**
 * The client address of a request as express's `req.ip` gives it (proxy-addr): the peer, then
 * each X-Forwarded-For entry from the right for as long as the address before it is trusted
 * (TRUST_PROXY). For the node:http fast path, which answers without express but must count a
 * call for the same client as the JSON-RPC path (RpcContext.clientIp).
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxyFn): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return undefined;
  const chain = [peer, ...forwardedFor(req)];
  let hop = 0;
  while (hop < chain.length - 1 && trust(chain[hop]!, hop)) hop += 1;
  return chain[hop];
}
