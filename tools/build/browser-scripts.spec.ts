import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { copyBrowserScripts, repoRoot } from './assemble-app.js';

/**
 * The pages' scripts reach the images: an app's `src/…/browser/*.js` land in `dist/browser/`,
 * where `new URL('./browser/<name>.js', import.meta.url)` points from the bundle.
 */
describe('copyBrowserScripts (assemble-app)', () => {
  const out = mkdtempSync(join(tmpdir(), 'itp-browser-scripts-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("copies the gateway's demo and docs scripts and auth-service's login page script unchanged", () => {
    const gateway = join(out, 'gateway');
    const sources = {
      'init.js': 'apps/gateway/src/docs/browser',
      'phone.js': 'apps/gateway/src/demo/browser',
      'rpc.js': 'apps/gateway/src/docs/browser',
      'site.js': 'apps/gateway/src/demo/browser',
    };
    // These at least (an app may add more: each one copied as well, and listed).
    const copied = copyBrowserScripts('gateway', gateway);
    expect(copied).toEqual(
      expect.arrayContaining(Object.keys(sources).map((name) => `browser/${name}`)),
    );
    expect(readdirSync(join(gateway, 'dist', 'browser')).map((name) => `browser/${name}`)).toEqual(
      copied,
    );
    for (const [name, folder] of Object.entries(sources)) {
      expect(readFileSync(join(gateway, 'dist', 'browser', name), 'utf8')).toBe(
        readFileSync(join(repoRoot, folder, name), 'utf8'),
      );
    }
    const auth = join(out, 'auth-service');
    expect(copyBrowserScripts('auth-service', auth)).toContain('browser/login-page.js');
    expect(readFileSync(join(auth, 'dist', 'browser', 'login-page.js'), 'utf8')).toBe(
      readFileSync(join(repoRoot, 'apps/auth-service/src/oidc/browser/login-page.js'), 'utf8'),
    );
  });

  it('copies nothing for an app without browser scripts', () => {
    const tokenRpc = join(out, 'token-rpc');
    expect(copyBrowserScripts('token-rpc', tokenRpc)).toEqual([]);
    expect(() => readdirSync(join(tokenRpc, 'dist', 'browser'))).toThrow();
  });
});
