import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGateway, type RunningGateway } from '../../testing/start-gateway.js';

/**
 * The demo pages' scripts are the files beside this spec, served as they are (same origin,
 * JavaScript's content type) and admitted by the page's CSP, which admits nothing else: no inline
 * script, no other origin. The pages running them are e2e/src/dev-suites/demo-browser.suite.ts.
 */
const PAGES = [
  { page: '/demo/site', file: 'site.js' },
  { page: '/demo/phone', file: 'phone.js' },
  { page: '/demo/passkeys', file: 'passkeys.js' },
  { page: '/demo/age', file: 'age.js' },
] as const;

/** The sources of a CSP directive (`script-src 'self'` → `["'self'"]`). */
function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name);
  return found?.slice(1);
}

describe('/demo scripts (gateway, development mode)', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({
      APP_ENV: 'development',
      PUBLIC_URL: 'http://localhost:8080',
      AUTH_SERVICE_URL: 'http://127.0.0.1:9',
      DID_SERVICE_URL: 'http://127.0.0.1:9',
      TOKEN_RPC_URL: 'http://127.0.0.1:9',
      BLOCK_RPC_URL: 'http://127.0.0.1:9',
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it.each(PAGES)(
    "$page runs browser/$file: served same-origin as text/javascript, admitted by the page's CSP",
    async ({ page, file }) => {
      const res = await fetch(`${gateway.url}${page}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      // One script, by URL: no inline code.
      const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
      expect(scripts).toHaveLength(1);
      expect(scripts[0]?.[1]).toBe('');
      const src = /<script src="([^"]+)" defer>/.exec(html)?.[1];
      expect(src).toBe(`/demo/${file}`);
      const scriptUrl = new URL(src!, `${gateway.url}${page}`);
      expect(scriptUrl.origin).toBe(new URL(gateway.url).origin);

      // The CSP admits the page's own origin only ('self': the script above), nothing inline.
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(directive(csp, 'script-src')).toEqual(["'self'"]);
      expect(directive(csp, 'default-src')).toEqual(["'none'"]);

      const script = await fetch(scriptUrl);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await script.text()).toBe(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'));
    },
  );

  it("serves what the page scripts share, demo-api.js, the ES module each imports from the page's origin", async () => {
    const res = await fetch(`${gateway.url}/demo/demo-api.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(readFileSync(new URL('./demo-api.js', import.meta.url), 'utf8'));
    for (const { file } of PAGES) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      // Relative to the script's own URL (/demo/<file>): /demo/demo-api.js, the same origin.
      expect(source).toContain("import('./demo-api.js')");
    }
  });
});
