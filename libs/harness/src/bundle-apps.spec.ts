import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { bundleEntry, bundleServices, bundlesRoot } from './bundle-apps.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('bundleServices', () => {
  it('bundles an app with the workspace libs, keeps npm packages external, and removes it', async () => {
    const bundles = await bundleServices(repoRoot, ['gateway']);
    const entry = bundles.entry('gateway');
    try {
      expect(entry.startsWith(join(bundlesRoot(repoRoot), `run-${process.pid}`))).toBe(true);
      const code = readFileSync(entry, 'utf8');
      expect(code).not.toMatch(/from\s+["']@itp\//); // the libs are inside the bundle
      expect(code).toMatch(/from\s+["']express["']/); // npm packages are loaded from node_modules
      expect(code).toMatch(/\/\/# sourceMappingURL=main\.mjs\.map\s*$/);
      expect(existsSync(`${entry}.map`)).toBe(true);
    } finally {
      bundles.remove();
    }
    expect(existsSync(entry)).toBe(false);
  });

  it("removes the folders of earlier runs whose process is gone, not the running ones'", async () => {
    const root = bundlesRoot(repoRoot);
    const gone = join(root, 'run-2147483646'); // above pid_max: no such process
    const running = join(root, `run-${process.ppid}`);
    mkdirSync(gone, { recursive: true });
    mkdirSync(running, { recursive: true });
    const bundles = await bundleServices(repoRoot, ['gateway']);
    bundles.remove();
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(running)).toBe(true);
    rmSync(running, { recursive: true });
  });

  it('fails with a clear message when an app does not exist', async () => {
    await expect(bundleServices(repoRoot, ['no-such-app'])).rejects.toThrow(
      /could not build the services/,
    );
  });
});

describe('bundleEntry', () => {
  it('bundles one entry into a folder of its own, which an earlier run of a gone process loses', async () => {
    const root = bundlesRoot(repoRoot);
    const gone = join(root, 'entry-2147483646-x'); // above pid_max: no such process
    mkdirSync(gone, { recursive: true });
    const [a, b] = await Promise.all([
      bundleEntry(repoRoot, join(repoRoot, 'apps/token-rpc/src/migrate.ts')),
      bundleEntry(repoRoot, join(repoRoot, 'apps/token-rpc/src/migrate.ts')),
    ]);
    try {
      expect(existsSync(gone)).toBe(false);
      expect(a.file).not.toBe(b.file);
      expect(a.file.startsWith(join(root, `entry-${process.pid}-`))).toBe(true);
      expect(a.file.endsWith('/migrate.mjs')).toBe(true);
      const code = readFileSync(a.file, 'utf8');
      expect(code).not.toMatch(/from\s+["']@itp\//);
    } finally {
      a.remove();
      b.remove();
    }
    expect(existsSync(a.file)).toBe(false);
  });
});
