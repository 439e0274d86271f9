/**
 * The relying party of the demo "web site": the server side of a QR (app) login, done the way a
 * real web site does it (docs/api.md §2, auth-service README "Web-site login"). The
 * client secret stays here: the browser only ever sees the requestId and the logged-in user.
 */
import {
  authErrorMessage as errorMessage,
  basicAuthorization,
  callAuthService,
  type AuthAnswer,
} from './demo-auth-call.js';
import { DemoSiteError } from './demo-site-error.js';
import { isOpenid4vpUri } from './is-openid4vp-uri.js';
import { pollPending, type PendingState } from './poll-pending.js';

export { DemoSiteError } from './demo-site-error.js';

/** The relying party the dev stack seeds (apps/auth-service/src/dev/demo-data.ts, DEMO_CLIENT). */
export const DEMO_SITE = {
  clientId: 'demo-site',
  clientSecret: 'demo-site-secret',
  /** Seconds the phone app has to approve. */
  waitTime: 120,
} as const;

/**
 * The site identifier the demo site sends to auth-user-by-app: `<PUBLIC_URL>/demo?`, under the
 * prefix the dev stack registers for demo-site (`<PUBLIC_URL>/`), so it follows PORT.
 */
export function demoSiteIdentifier(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/demo?`;
}

export interface LoginRequest {
  requestId: string;
  waitTime: number;
  /**
   * The same request for any OpenID4VP wallet (`openid4vp://?client_id=…&request_uri=…`), when
   * auth-service offers one (it does not while did-service is unavailable).
   */
  openid4vpUri?: string;
}

/** What the web site learns from one poll of its login request. */
export type LoginState =
  | PendingState
  | { status: 'approved'; user: { userId: string; name: string; email: string } }
  | { status: 'expired'; message: string };

export class DemoSiteLogin {
  private readonly authorization: string;

  constructor(
    /** auth-service's base URL (the gateway's first AUTH_SERVICE_URL). */
    private readonly authServiceUrl: string,
    /** The requestId prefix this site sends (demoSiteIdentifier). */
    private readonly siteIdentifier: string,
    private readonly site: typeof DEMO_SITE = DEMO_SITE,
  ) {
    this.authorization = basicAuthorization(site.clientId, site.clientSecret);
  }

  /** auth-user-by-app: a new login request; its requestId is what the QR code shows. */
  async start(): Promise<LoginRequest> {
    const answer = await this.call('auth-user-by-app', {
      requestId: this.siteIdentifier,
      waitTime: this.site.waitTime,
    });
    const { requestId, waitTime, openid4vpUri } = answer.body;
    if (answer.status !== 200 || typeof requestId !== 'string' || typeof waitTime !== 'number') {
      throw new DemoSiteError(
        `auth-service refused the login request (HTTP ${answer.status}: ${errorMessage(answer)})`,
        502,
      );
    }
    return isOpenid4vpUri(openid4vpUri)
      ? { requestId, waitTime, openid4vpUri }
      : { requestId, waitTime };
  }

  /** auth-user-result-by-app, turned into what the page shows (the JWT stays on the server). */
  async poll(requestId: string): Promise<LoginState> {
    const answer = await this.call('auth-user-result-by-app', { requestId });
    if (answer.status === 200) {
      const { userId, name, email } = answer.body;
      return {
        status: 'approved',
        user: { userId: String(userId), name: String(name), email: String(email ?? '') },
      };
    }
    const pending = pollPending(answer);
    if (pending) return pending;
    if (answer.status === 400 || answer.status === 403) {
      return { status: 'expired', message: errorMessage(answer) };
    }
    throw new DemoSiteError(
      `auth-service answered HTTP ${answer.status}: ${errorMessage(answer)}`,
      502,
    );
  }

  private call(endpoint: string, body: unknown): Promise<AuthAnswer> {
    return callAuthService(this.authServiceUrl, this.authorization, endpoint, body);
  }
}
