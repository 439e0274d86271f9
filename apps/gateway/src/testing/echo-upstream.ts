import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an echo upstream saw of one request (bodies above 64 KiB only as length + hash). */
export interface EchoedRequest {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyLength: number;
  bodySha256: string;
  body?: string;
  /** The connection was dropped instead of answered (`dropConnections`). */
  dropped?: boolean;
}

export interface EchoUpstream {
  name: string;
  url: string;
  /** Every request except /health/ready, in arrival order. */
  requests: EchoedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** true: /health/ready answers 200; false: 503 with a service-kit style report. */
  ready: boolean;
  /** Delay before answering anything but /health/ready (a slow upstream). */
  delayMs: number;
  /** Delay before answering /health/ready. */
  readyDelayMs: number;
  /**
   * The next this-many requests (other than /health/ready) are not answered: their connection is
   * reset once the request has arrived, before any byte of an answer (an upstream that closed a
   * kept-alive connection as it was reused, or crashed).
   */
  dropConnections: number;
  /** Stops listening and cuts every connection (what a crashed upstream looks like). */
  close(): Promise<void>;
  /** Listens again on the same port, as a restarted upstream does. */
  restart(): Promise<void>;
}

const MAX_ECHOED_BODY = 64 * 1024;

/**
 * A real HTTP upstream for gateway tests, on an ephemeral port: answers every request with a JSON
 * echo of method, url, headers and body, and sends headers the gateway must not pass on
 * (`x-powered-by`, `access-control-allow-origin`) plus its own `Vary`.
 */
export async function startEchoUpstream(
  name: string,
  options: { port?: number } = {},
): Promise<EchoUpstream> {
  let connections = 0;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    if (ms <= 0) {
      fn();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/health/ready') {
        later(upstream.readyDelayMs, () => {
          res.statusCode = upstream.ready ? 200 : 503;
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify(
              upstream.ready
                ? { status: 'ready', checks: { redis: 'ok' }, notReady: [] }
                : {
                    status: 'not ready',
                    checks: { redis: 'error: connect ECONNREFUSED', database: 'ok' },
                    notReady: ['redis'],
                  },
            ),
          );
        });
        return;
      }
      const body = Buffer.concat(chunks);
      const echoed: EchoedRequest = {
        upstream: name,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodyLength: body.length,
        bodySha256: createHash('sha256').update(body).digest('hex'),
        ...(body.length <= MAX_ECHOED_BODY ? { body: body.toString('utf8') } : {}),
      };
      upstream.requests.push(echoed);
      if (upstream.dropConnections > 0) {
        upstream.dropConnections -= 1;
        echoed.dropped = true;
        req.socket.resetAndDestroy();
        return;
      }
      const answer = () => {
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('x-powered-by', 'echo-upstream');
        res.setHeader('access-control-allow-origin', 'https://evil.example');
        res.setHeader('vary', 'Accept-Encoding');
        if (!res.destroyed) res.end(JSON.stringify(echoed));
      };
      later(upstream.delayMs, answer);
    });
  };
  let server: Server;
  const listen = async (port: number): Promise<number> => {
    server = createServer(handler);
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  };
  const port = await listen(options.port ?? 0);
  const upstream: EchoUpstream = {
    name,
    url: `http://127.0.0.1:${port}`,
    requests: [],
    connections: () => connections,
    ready: true,
    delayMs: 0,
    readyDelayMs: 0,
    dropConnections: 0,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    restart: async () => {
      if (!server.listening) await listen(port);
    },
  };
  return upstream;
}
