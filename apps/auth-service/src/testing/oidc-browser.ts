import { CookieJar } from '@itp/testing/cookie-jar';

/**
 * Test-only: a browser without a screen for the OpenID Connect provider's pages. It keeps
 * cookies (per host, path `/`, as a real browser would send them to the provider), follows
 * redirects until it reaches the relying party's `redirect_uri` (not followed: its URL is the
 * result), and posts forms.
 */
export interface BrowserPage {
  status: number;
  url: string;
  html: string;
  headers: Headers;
}

export class OidcTestBrowser {
  private readonly cookies = new CookieJar();

  constructor(
    /** URLs starting with this are the relying party's callback: reached, not fetched. */
    private readonly callbackPrefix: string,
  ) {}

  /** Follows redirects from `url`; the callback URL (string) or the page where it stopped. */
  async open(url: string, init: RequestInit = {}): Promise<string | BrowserPage> {
    let next = url;
    let request: RequestInit = init;
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.startsWith(this.callbackPrefix)) return next;
      const res = await fetch(next, {
        ...request,
        redirect: 'manual',
        headers: { ...(request.headers as Record<string, string>), cookie: this.cookies.header() },
      });
      this.cookies.keep(res.headers);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        next = new URL(location, next).href;
        request = {};
        continue;
      }
      return { status: res.status, url: next, html: await res.text(), headers: res.headers };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Posts a form (urlencoded) to `action` (relative to `page`), following redirects. */
  submit(
    page: BrowserPage,
    action: string,
    fields: Record<string, string>,
    origin = new URL(page.url).origin,
  ): Promise<string | BrowserPage> {
    return this.open(new URL(action, page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** GET as the page's script does (same cookies), JSON answer. */
  async json(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(url, {
      headers: { accept: 'application/json', cookie: this.cookies.header() },
    });
    this.cookies.keep(res.headers);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
}

/** The value of `attribute` on the element with `id` in `html` (test pages are simple). */
export function attributeOf(html: string, id: string, attribute: string): string | undefined {
  const element = new RegExp(`<[^>]*id="${id}"[^>]*>`).exec(html)?.[0];
  const value = element && new RegExp(`${attribute}="([^"]*)"`).exec(element)?.[1];
  return value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}
