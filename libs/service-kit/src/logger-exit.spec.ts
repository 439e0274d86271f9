import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));

/**
 * A service whose stdout reader has gone (the process that started it was killed) logs while it
 * shuts down and exits: it must end, not spin in a flush that retries the failed write forever.
 */
describe('createLogger when the reader of stdout has gone', () => {
  it('lets the process exit after logging', async () => {
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const log = createLogger({ name: 'exit-test', level: 'info' });
      log.info('started');
      process.on('message', () => {
        // Several lines at once, as a shutdown writes them: one being written, the rest queued.
        for (let i = 0; i < 5; i += 1) log.info('shutting down after the reader left');
        process.exit(0);
      });
      process.send('ready');
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`ended early with ${code}`)));
      });
      // The reader goes away: further writes to the child's stdout fail with EPIPE.
      child.stdout!.destroy();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.send('stop');
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        exited,
        new Promise<'hung'>((resolve) => {
          timer = setTimeout(() => resolve('hung'), 15_000);
        }),
      ]);
      // The 15 s timer must not outlive the test: left running, it held the jest worker at the end
      // of a run (ADR 0022).
      clearTimeout(timer);
      expect(outcome).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
