/**
 * The demo OpenID Connect site's server-side sessions (demo-oidc-site.ts): what a login in
 * progress must remember (PKCE verifier, state, nonce, redirect URI), then who logged in. The
 * browser holds only a random id, in an HttpOnly SameSite=Lax cookie; the store keeps at most
 * `maxEntries` sessions, each for `ttlMs`. In memory: a demo (one gateway process), not a
 * session store for several instances.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';

export const DEMO_OIDC_COOKIE = 'demo_oidc';
const COOKIE_PATH = '/demo/oidc';

/** An authorization request sent, its answer not yet back. */
export interface PendingLogin {
  verifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
}

/** A completed login: the claims to show and the id_token (the logout's id_token_hint). */
export interface CompletedLogin {
  idToken: string;
  idTokenClaims: Record<string, unknown>;
  userinfo: Record<string, unknown>;
}

export interface DemoOidcSession {
  pending?: PendingLogin;
  login?: CompletedLogin;
}

interface Entry {
  session: DemoOidcSession;
  expires: number;
}

export class DemoOidcSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs = 30 * 60_000,
    readonly maxEntries = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The session of the request's cookie, when it exists and has not expired. */
  get(req: Request): DemoOidcSession | undefined {
    const id = cookieValue(req.headers.cookie, DEMO_OIDC_COOKIE);
    const entry = id === undefined ? undefined : this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(id as string);
      return undefined;
    }
    return entry.session;
  }

  /** A new session (replacing the request's own one) and its cookie. */
  start(req: Request, res: Response, session: DemoOidcSession): void {
    this.end(req, res);
    this.evict();
    const id = randomBytes(32).toString('base64url');
    this.entries.set(id, { session, expires: this.now() + this.ttlMs });
    res.cookie(DEMO_OIDC_COOKIE, id, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: COOKIE_PATH,
      maxAge: this.ttlMs,
    });
  }

  /** Forgets the request's session and clears its cookie. */
  end(req: Request, res: Response): void {
    const id = cookieValue(req.headers.cookie, DEMO_OIDC_COOKIE);
    if (id === undefined) return;
    this.entries.delete(id);
    res.clearCookie(DEMO_OIDC_COOKIE, { path: COOKIE_PATH });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops expired sessions, then the oldest ones while the store is full. */
  private evict(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expires <= now) this.entries.delete(id);
    for (const id of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(id);
    }
  }
}

/** One cookie's value from a Cookie header (the last one of that name wins). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  let value: string | undefined;
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) value = part.slice(eq + 1).trim();
  }
  return value || undefined;
}
