import type { ChildProcessByStdio } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { spawnGuarded } from '@itp/harness';

export interface ReferenceServer {
  url: string;
  stop(): void;
}

const script = fileURLToPath(new URL('./reference-server.ts', import.meta.url));

/** Starts reference-server.ts in its own process; `payload` is written to `dir` for `express`. */
export async function startReference(
  kind: 'bare' | 'express',
  dir: string,
  payload?: string,
): Promise<ReferenceServer> {
  const args = ['--import', 'tsx', script, kind];
  if (kind === 'express') {
    const file = join(dir, 'payload.json');
    writeFileSync(file, payload ?? '{}');
    args.push(file);
  }
  const child = spawnGuarded(process.execPath, args, {
    label: `bench reference server (${kind})`,
    stdio: ['pipe', 'pipe', 'inherit'],
  }) as ChildProcessByStdio<Writable, Readable, null>;
  const port = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`reference server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      child.stdin.end();
      child.kill('SIGTERM');
    },
  };
}
