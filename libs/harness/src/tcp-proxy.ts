import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay between a service and one of its dependencies (PostgreSQL, Redis), for tests that
 * take the dependency away while the service runs: `cut()` refuses new connections and breaks
 * the open ones (what a crashed or restarting server looks like to its clients), `restore()`
 * listens again on the same port.
 */
export interface TcpProxy {
  /** 127.0.0.1 port the relay listens on (the same after restore). */
  readonly port: number;
  /** `url` with its host and port replaced by the relay's. */
  proxiedUrl(url: string): string;
  /** Connections relayed so far. */
  connections(): number;
  /** Stops listening (new connections: ECONNREFUSED) and resets every open connection. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** cut(), for good. */
  close(): Promise<void>;
}

/** Starts a relay on an ephemeral port of 127.0.0.1 to `target` (`host:port` or a URL). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port: targetPort } = new URL(
    target.includes('://') ? target : `tcp://${target}`,
  );
  const host = hostname.replace(/^\[|\]$/g, '');
  const open = new Set<Socket>();
  let relayed = 0;

  const relay = (client: Socket): void => {
    relayed += 1;
    const upstream = connect({ host, port: Number(targetPort) });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  };

  let server: Server = createServer(relay);
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);

  const cut = async (): Promise<void> => {
    const closed = server.listening
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    for (const socket of open) socket.resetAndDestroy();
    await closed;
  };

  return {
    port,
    proxiedUrl: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    connections: () => relayed,
    cut,
    restore: async () => {
      if (server.listening) return;
      server = createServer(relay);
      await listen(port);
    },
    close: cut,
  };
}
