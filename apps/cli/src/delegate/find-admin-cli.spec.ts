import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '../errors.js';
import { findAdminCli } from './find-admin-cli.js';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const tsxLoader = join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const dir = mkdtempSync(join(tmpdir(), 'itp-admin-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An assembled image folder (tools/build/assemble-app.ts layout) of `app`. */
function image(app: string): string {
  const out = join(dir, app);
  mkdirSync(join(out, 'dist'), { recursive: true });
  writeFileSync(join(out, 'package.json'), JSON.stringify({ name: `@itp/${app}-image` }));
  writeFileSync(join(out, 'dist', 'cli.js'), '');
  return join(out, 'dist');
}

describe('findAdminCli', () => {
  it('in this repository runs the service source through the repository tsx', () => {
    for (const service of ['auth-service', 'did-service'] as const) {
      const file = join(repoRoot, 'apps', service, 'src', 'cli.ts');
      expect(findAdminCli(service, undefined)).toEqual({
        file,
        nodeArgs: ['--import', `file://${tsxLoader}`, file],
      });
    }
  });

  it('finds the repository from a bundle in dist/apps/cli as well', () => {
    const fromDist = join(repoRoot, 'dist', 'apps', 'cli');
    expect(findAdminCli('auth-service', undefined, fromDist).file).toBe(
      join(repoRoot, 'apps', 'auth-service', 'src', 'cli.ts'),
    );
  });

  it("in a service image runs that image's bundled dist/cli.js, and only that service's", () => {
    const dist = image('auth-service');
    expect(findAdminCli('auth-service', undefined, dist)).toEqual({
      file: join(dist, 'cli.js'),
      nodeArgs: [join(dist, 'cli.js')],
    });
    expect(() => findAdminCli('did-service', undefined, dist)).toThrow(
      /the did-service operator CLI was not found .* set ITP_DID_ADMIN_CLI to its cli.js/,
    );
  });

  it('takes the override first: a .js file as it is, a .ts file through tsx', () => {
    const js = join(dir, 'custom-cli.js');
    writeFileSync(js, '');
    expect(findAdminCli('auth-service', js)).toEqual({ file: js, nodeArgs: [js] });
    const ts = join(repoRoot, 'apps', 'did-service', 'src', 'cli.ts');
    expect(findAdminCli('auth-service', ts).nodeArgs).toEqual([
      '--import',
      `file://${tsxLoader}`,
      ts,
    ]);
  });

  it('refuses an override that does not exist, or a .ts file where tsx is not installed', () => {
    expect(() => findAdminCli('auth-service', join(dir, 'absent.js'))).toThrow(
      new ConfigError(`ITP_AUTH_ADMIN_CLI: no such file: ${resolve(dir, 'absent.js')}`),
    );
    const ts = join(dir, 'cli.ts');
    writeFileSync(ts, '');
    expect(() => findAdminCli('did-service', ts)).toThrow(
      /is TypeScript, but tsx is not installed/,
    );
  });
});
