import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { bundleServices, bundlesRoot } from './bundle-apps.js';

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
