import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Sends `text` through a new connection to `port`; resolves with the echo. */
function echoThrough(port: number): Promise<{ socket: Socket; echoed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      const echoed = new Promise<string>((done) => socket.once('data', (d) => done(String(d))));
      socket.write('ping');
      resolve({ socket, echoed });
    });
  });
}

function refused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('startTcpProxy', () => {
  let echo: Server;
  let echoPort: number;
  let proxy: TcpProxy | undefined;
  beforeEach(async () => {
    echo = createServer((s) => s.on('data', (d) => s.write(d)).on('error', () => undefined));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await new Promise((resolve) => echo.close(resolve));
  });

  it('relays to host:port, cuts open and new connections, and restores on the same port', async () => {
    proxy = await startTcpProxy(`127.0.0.1:${echoPort}`);
    const { socket, echoed } = await echoThrough(proxy.port);
    expect(await echoed).toBe('ping');
    expect(proxy.connections()).toBe(1);

    const closed = new Promise((resolve) => socket.once('close', resolve));
    await proxy.cut();
    await closed;
    expect(await refused(proxy.port)).toBe('ECONNREFUSED');

    await proxy.restore();
    const again = await echoThrough(proxy.port);
    expect(await again.echoed).toBe('ping');
    expect(proxy.connections()).toBe(2);
    again.socket.destroy();
  });

  it('takes a URL as its target and rewrites URLs to itself', async () => {
    proxy = await startTcpProxy(`redis://127.0.0.1:${echoPort}/3`);
    expect(proxy.proxiedUrl(`redis://u:p@db.example:6379/3`)).toBe(
      `redis://u:p@127.0.0.1:${proxy.port}/3`,
    );
    const { socket, echoed } = await echoThrough(proxy.port);
    expect(await echoed).toBe('ping');
    socket.destroy();
  });
});
