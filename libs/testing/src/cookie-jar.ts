/**
 * `@itp/testing/cookie-jar`: the cookies of one scripted browser (name → value), kept from
 * `Set-Cookie` answers and sent back as one `Cookie` header; an emptied or expired cookie is
 * dropped. Path and domain are not needed: a test browser talks to one host.
 *
 * Two clients: `fetch` (the global fetch, a WHATWG `Response`) for tests, and `request`
 * (undici's request API on a keep-alive pool per origin, a plain answer) for load generators:
 * fetch costs the generator ~5 ms of CPU per OpenID Connect login (WHATWG streams and `Headers`
 * per request) on the cores the benchmark measures the stack on; `request` sends the same
 * method, path, body and the headers given (cookies, Origin, content type, Authorization).
 */
import { Pool } from 'undici';

/** A request of `request`/`plainRequest`: what the flows send (a string body, plain headers). */
export interface PlainInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** An answer of `request`/`plainRequest`: its body is read (or dropped) once. */
export interface PlainAnswer {
  status: number;
  /** A header of the answer (the first, when repeated), or null. */
  header(name: string): string | null;
  /** Every `Set-Cookie` line of the answer. */
  setCookies(): string[];
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** Reads and drops the body (the connection goes back to its pool). */
  drain(): Promise<void>;
}

const pools = new Map<string, Pool>();

/** The keep-alive pool of `origin` (one per origin per process, connections made as needed). */
function poolOf(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, { keepAliveTimeout: 10_000 });
    pools.set(origin, pool);
  }
  return pool;
}

/** Closes the pools `plainRequest` opened (their idle connections are unref'd meanwhile). */
export async function closePlainPools(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((pool) => pool.close()));
}

/**
 * One request with undici's request API on the origin's keep-alive pool: no redirect followed,
 * no header added but `host`, `content-length` and `connection` (fetch adds accept, user-agent,
 * accept-encoding and sec-fetch-mode, which the stack does not read).
 */
export async function plainRequest(url: string, init: PlainInit = {}): Promise<PlainAnswer> {
  const { origin, pathname, search } = new URL(url);
  const res = await poolOf(origin).request({
    path: `${pathname}${search}`,
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers,
    body: init.body,
  });
  const headers = res.headers;
  return {
    status: res.statusCode,
    header: (name) => {
      const value = headers[name.toLowerCase()];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
    setCookies: () => {
      const value = headers['set-cookie'];
      return value === undefined ? [] : Array.isArray(value) ? value : [value];
    },
    text: () => res.body.text(),
    json: () => res.body.json(),
    drain: () => res.body.dump(),
  };
}

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

  /**
   * The same as `fetch` with `plainRequest` (for load generators): cookies sent (no `Cookie`
   * header while the jar is empty, as a browser does), redirects not followed, `Set-Cookie` kept.
   */
  async request(url: string, init: PlainInit = {}): Promise<PlainAnswer> {
    const cookie = this.header();
    const res = await plainRequest(url, {
      ...init,
      headers: cookie ? { ...init.headers, cookie } : init.headers,
    });
    this.keepLines(res.setCookies());
    return res;
  }

  keep(headers: Headers): void {
    this.keepLines(headers.getSetCookie());
  }

  /** Keeps the cookies of `Set-Cookie` lines (an emptied or expired one is dropped). */
  keepLines(lines: readonly string[]): void {
    for (const line of lines) {
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
