/**
 * `@itp/testing/cookie-jar`: the cookies of one scripted browser (name → value), kept from
 * `Set-Cookie` answers and sent back as one `Cookie` header; an emptied or expired cookie is
 * dropped. Path and domain are not needed: a test browser talks to one host.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /**
   * One request of this browser: its cookies sent (besides `init.headers`), redirects not
   * followed (the caller reads each `Location`), the answer's `Set-Cookie` kept.
   */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    this.keep(res.headers);
    return res;
  }

  keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]!;
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
