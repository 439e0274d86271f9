import { Readable, Writable } from 'node:stream';
import { runCli } from '../cli/run-cli.js';

/**
 * Test helper: the operator CLI in process, APP_ENV=test plus `env`, with what it writes captured;
 * `stdin` is what it reads from its standard input.
 */
export async function runCliCaptured(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink = (write: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        write(chunk.toString('utf8'));
        cb();
      },
    });
  const code = await runCli(args, {
    env: { APP_ENV: 'test', ...env },
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
    ...(stdin !== undefined ? { stdin: Readable.from([Buffer.from(stdin)]) } : {}),
  });
  return { code, out, err };
}
