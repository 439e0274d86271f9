import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from './testing/wait-for.js';

const kit = fileURLToPath(new URL('./index.ts', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

interface Child {
  child: ChildProcess;
  /** Everything the child wrote to stdout so far. */
  out: () => string;
  /** The first IPC message. */
  message: Promise<unknown>;
  exited: Promise<number | null>;
}

/** Runs `script` (an ES module importing service-kit as `kit`) in a process of its own. */
function run(script: string): Child {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const kit = await import(${JSON.stringify(kit)});\n${script}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  children.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      // stdout may still hold the last bytes: wait for its end.
      if (child.stdout!.readableEnded || child.stdout!.destroyed) resolve(code);
      else child.stdout!.once('close', () => resolve(code));
    }),
  );
  const message = new Promise<unknown>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`ended before its message (${code})`)));
  });
  message.catch(() => undefined); // a child that sends nothing: only an awaited message fails
  return { child, out: () => text, message, exited };
}

const accessLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.includes('"request completed"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * Access lines are written to stdout in batches (createLogger's accessLoggerOf, issue 37): a
 * batch kept in memory must reach stdout when the service shuts down, when the process exits,
 * and when no more lines come in — never lost, never held for long.
 */
describe('batched access log of createLogger', () => {
  it('writes the access line of every request served before a graceful shutdown (SIGTERM)', async () => {
    const service = run(`
      const logger = kit.createLogger({ name: 'batch-test', level: 'info' });
      const service = new kit.HttpService({
        name: 'batch-test',
        logger,
        config: { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 5000, READINESS_TIMEOUT_MS: 500 },
      });
      service.app.get('/x', (_req, res) => res.json({ ok: true }));
      kit.exitOnSignals(service, logger);
      const { url } = await service.listen();
      process.send(url);
    `);
    const url = (await service.message) as string;
    const ids: string[] = [];
    // Concurrent requests, then the signal right after the last answer: most lines are still in
    // the batch (fewer than ACCESS_LOG_BATCH_BYTES) when SIGTERM arrives.
    for (let wave = 0; wave < 4; wave += 1) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${url}/x`, { headers: { connection: 'close' } })),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        ids.push(answer.headers.get('x-request-id')!);
      }
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const lines = accessLines(service.out());
    expect(lines.map((l) => (l['req'] as { id: string }).id).sort()).toEqual([...ids].sort());
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 30,
        service: 'batch-test',
        name: 'batch-test',
        req: { method: 'GET', url: '/x' },
        res: { statusCode: 200 },
        msg: 'request completed',
      });
      expect(typeof line['time']).toBe('string');
      expect(typeof line['responseTime']).toBe('number');
    }
  }, 60_000);

  it('writes the lines still kept when the process exits (process.exit in the same tick)', async () => {
    const child = run(`
      const logger = kit.createLogger({ name: 'batch-test', level: 'info' });
      const access = kit.accessLoggerOf(logger);
      for (let i = 0; i < 10; i += 1) access.info({ req: { id: 'r' + i } }, 'request completed');
      process.exit(0);
    `);
    expect(await child.exited).toBe(0);
    expect(accessLines(child.out()).map((l) => (l['req'] as { id: string }).id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `r${i}`),
    );
  }, 60_000);

  it('writes a lone line within the flush interval while the service idles', async () => {
    const child = run(`
      const logger = kit.createLogger({ name: 'batch-test', level: 'info' });
      kit.accessLoggerOf(logger).info({ req: { id: 'lone' } }, 'request completed');
      process.send({ flushMs: kit.ACCESS_LOG_FLUSH_MS, batchBytes: kit.ACCESS_LOG_BATCH_BYTES });
      setInterval(() => undefined, 1000);
    `);
    const { flushMs } = (await child.message) as { flushMs: number };
    expect(flushMs).toBeLessThanOrEqual(1000);
    const lines = await waitFor(() => accessLines(child.out()).length === 1 && child.out(), {
      what: 'the lone access line',
      timeoutMs: 5_000,
    });
    expect(accessLines(lines)[0]).toMatchObject({ req: { id: 'lone' } });
  }, 60_000);

  it('lets the process exit when the reader of stdout has gone with lines kept', async () => {
    const child = run(`
      const logger = kit.createLogger({ name: 'batch-test', level: 'info' });
      const access = kit.accessLoggerOf(logger);
      process.on('message', () => {
        for (let i = 0; i < 5; i += 1) access.info({ req: { id: 'r' + i } }, 'request completed');
        process.exit(0);
      });
      process.send('ready');
      setInterval(() => undefined, 1000);
    `);
    await child.message;
    child.child.stdout!.destroy();
    child.child.send('stop');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      child.exited,
      new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 15_000))),
    ]);
    clearTimeout(timer);
    expect(outcome).toBe(0);
  }, 60_000);
});
