import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface HttpsReverseProxy {
  port: number;
  close(): Promise<void>;
}

/**
 * Test only: an https server on 127.0.0.1 (certificate `certPem`, key `keyPem`) that forwards every
 * request to the http base `target()` answers (read per request: a restarted service has a new
 * port), as a TLS-terminating gateway in front of the service would.
 */
export async function startHttpsReverseProxy(opts: {
  keyPem: string;
  certPem: string;
  target: () => string;
}): Promise<HttpsReverseProxy> {
  const server = createServer({ key: opts.keyPem, cert: opts.certPem }, (req, res) => {
    const target = new URL(req.url ?? '/', opts.target());
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
