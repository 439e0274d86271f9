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

  it("copies the gateway's demo scripts and auth-service's login page script unchanged", () => {
    const gateway = join(out, 'gateway');
    expect(copyBrowserScripts('gateway', gateway)).toEqual(['browser/phone.js', 'browser/site.js']);
    for (const name of ['phone.js', 'site.js']) {
      expect(readFileSync(join(gateway, 'dist', 'browser', name), 'utf8')).toBe(
        readFileSync(join(repoRoot, 'apps/gateway/src/demo/browser', name), 'utf8'),
      );
    }
    const auth = join(out, 'auth-service');
    expect(copyBrowserScripts('auth-service', auth)).toEqual(['browser/login-page.js']);
    expect(readdirSync(join(auth, 'dist', 'browser'))).toEqual(['login-page.js']);
  });

  it('copies nothing for an app without browser scripts', () => {
    const tokenRpc = join(out, 'token-rpc');
    expect(copyBrowserScripts('token-rpc', tokenRpc)).toEqual([]);
    expect(() => readdirSync(join(tokenRpc, 'dist', 'browser'))).toThrow();
  });
});
