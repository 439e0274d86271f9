/**
 * What a Kubernetes Service is to startStack (stack.ts): one address in front of every replica
 * of a service. Each new connection goes to the next replica in turn; a replica that refuses the
 * connection (killed) is skipped and the next one tried, so the services that call another one
 * through this address reach whichever replicas are alive.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpBalancer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

export async function startTcpBalancer(targets: string[]): Promise<TcpBalancer> {
  const upstreams = targets.map((url) => {
    const u = new URL(url);
    return { host: u.hostname, port: Number(u.port) };
  });
  const sockets = new Set<Socket>();
  let turn = 0;

  const pipeTo = (client: Socket, attempt: number): void => {
    if (attempt >= upstreams.length) {
      client.destroy();
      return;
    }
    const target = upstreams[turn++ % upstreams.length]!;
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.once('error', (err: NodeJS.ErrnoException) => {
      // Nothing was sent yet: the next replica gets the connection.
      if (!upstream.readyState.startsWith('open') && err.code === 'ECONNREFUSED') {
        pipeTo(client, attempt + 1);
      } else {
        client.destroy();
      }
    });
    client.once('close', () => upstream.destroy());
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    pipeTo(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
