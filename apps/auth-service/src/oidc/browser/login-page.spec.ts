import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, freePort, type TestDatabase } from '@itp/testing';
import { OidcTestBrowser } from '../../testing/oidc-browser.js';
import { startAuthService, type RunningAuthService } from '../../testing/start-auth-service.js';

const SITE = {
  id: 'shop',
  secret: 'shop-secret-123456',
  redirectUri: 'https://shop.example/oidc/callback',
};

/** The sources of a CSP directive (`script-src 'self'` → `["'self'"]`). */
function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name);
  return found?.slice(1);
}

/**
 * The login page's script is the file beside this spec (login-page.js), served as it is (same
 * origin, JavaScript's content type) and admitted by the page's CSP, which admits nothing else:
 * no inline script, no other origin. The page running it in Chromium is e2e's oidc suite.
 */
describe('the login page script (OpenID Connect provider)', () => {
  let db: TestDatabase;
  let service: RunningAuthService;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    service = await startAuthService({
      DATABASE_URL: db.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    await service.domain.clientAdmin.add({
      id: SITE.id,
      secret: SITE.secret,
      requestIdPrefixes: ['https://shop.example/'],
      redirectUris: [SITE.redirectUri],
    });
  });

  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  it("is served same-origin as text/javascript at the page's script URL, admitted by its CSP", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const authorization = new URL(`${service.url}/v2/auth/oidc/auth`);
    authorization.search = new URLSearchParams({
      client_id: SITE.id,
      redirect_uri: SITE.redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('hex'),
    }).toString();
    const page = await new OidcTestBrowser(SITE.redirectUri).open(authorization.href);
    if (typeof page === 'string') throw new Error(`expected the login page, reached ${page}`);
    expect(page.status).toBe(200);
    // The page with its QR logins (the site has request id prefixes): one script, by URL.
    expect(page.html).toContain('id="qr-status"');
    const scripts = [...page.html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[1]).toBe('');
    const src = /<script src="([^"]+)" defer>/.exec(page.html)?.[1];
    expect(src).toBe('/v2/auth/oidc/assets/login.js');
    const scriptUrl = new URL(src!, page.url);
    expect(scriptUrl.origin).toBe(new URL(page.url).origin);

    // The CSP admits the page's own origin only ('self': the script above), nothing inline.
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'default-src')).toEqual(["'none'"]);

    const script = await fetch(scriptUrl);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await script.text()).toBe(
      readFileSync(new URL('./login-page.js', import.meta.url), 'utf8'),
    );
  });
});
