/**
 * `itp` outside the repository, as apps/cli/README.md installs it: `npm install -g ./apps/cli`
 * (here into a temporary prefix) links bin/itp.js into PATH; run from another folder it works
 * without a build (the TypeScript source through the repository's tsx) and reads relative file
 * names from that folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@itp/testing';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(file: string, args: string[], cwd: string): Promise<Run> {
  const env: Record<string, string> = {};
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    return { code: Number(e.code ?? 1), stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('itp installed from the repository, run from any folder', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'itp-prefix-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'itp-elsewhere-'));
  const itp = join(prefix, 'bin', 'itp');

  beforeAll(async () => {
    const installed = await exec(
      'npm',
      ['install', '-g', './apps/cli', '--prefix', prefix, '--offline', '--no-audit', '--no-fund'],
      repoRoot,
    );
    expect(installed).toMatchObject({ code: 0 });
  }, 60_000);

  afterAll(() => {
    rmSync(prefix, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('answers --help', async () => {
    const help = await exec(itp, ['--help'], elsewhere);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: itp [global options] <command> [options]');
  }, 30_000);

  it("reads relative files from the caller's folder and names the platform it could not reach", async () => {
    writeFileSync(join(elsewhere, 'vc.json'), '{"credentialSubject":{}}');
    const nobody = `http://localhost:${await freePort()}`;
    const unreachable = await exec(itp, ['--url', nobody, 'vc', 'verify', 'vc.json'], elsewhere);
    expect(unreachable.code).toBe(3); // the file was read: the platform is what is missing
    expect(unreachable.stderr).toContain(`The platform at ${nobody} is not available`);
    const missing = await exec(itp, ['--url', nobody, 'vc', 'verify', 'absent.json'], elsewhere);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain('no such file: absent.json');
  }, 30_000);
});
