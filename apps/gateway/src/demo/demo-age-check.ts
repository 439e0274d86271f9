/**
 * The relying party of the demo "verify your age" page (`/demo/age`): the server side of a
 * presentation request (docs/api.md §14), done the way a registered site does it. It asks any EU
 * Digital Identity wallet for one claim, `age_over_18`, from a PID in either format; the service
 * verifies the presentation and hands this site the outcome. The client secret stays here, and of
 * the outcome the browser gets only the verdict, the issuer and the format: never another claim.
 */
import {
  authErrorMessage,
  basicAuthorization,
  callAuthService,
  type AuthAnswer,
} from './demo-auth-call.js';
import { DemoSiteError } from './demo-site-error.js';
import { DEMO_SITE } from './demo-site-login.js';
import { isOpenid4vpUri } from './is-openid4vp-uri.js';
import { pollPending, type PendingState } from './poll-pending.js';

/** The EUDI PID: its SD-JWT VC type and its mdoc doctype (and namespace). */
export const PID_VCT = 'urn:eudi:pid:1';
export const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';

/**
 * "age_over_18 from a PID", either format (OpenID4VP 1.0 §6): an SD-JWT VC (`dc+sd-jwt`) or an
 * mdoc (`mso_mdoc`), one of the two (`credential_sets` options).
 */
export const AGE_OVER_18_QUERY = {
  credentials: [
    {
      id: 'pid-sd-jwt',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
      claims: [{ path: ['age_over_18'] }],
    },
    {
      id: 'pid-mdoc',
      format: 'mso_mdoc',
      meta: { doctype_value: PID_DOCTYPE },
      claims: [{ path: [PID_DOCTYPE, 'age_over_18'] }],
    },
  ],
  credential_sets: [{ options: [['pid-sd-jwt'], ['pid-mdoc']] }],
} as const;

export const AGE_CHECK_PURPOSE = 'Prove you are over 18 (the demo site learns nothing else)';

/** A new request: what the page shows (as a QR code and a same-device link) and for how long. */
export interface AgeRequest {
  requestId: string;
  openid4vpUri: string;
  expiresInSeconds: number;
}

/** What the page learns from one poll. */
export type AgeState =
  | PendingState
  | { status: 'verified'; issuer: string; format: string }
  | { status: 'not-verified'; reason: string }
  | { status: 'expired'; message: string };

/** One credential of a verified outcome (`credentials.<query id>[i]`, docs/api.md §14). */
interface PresentedCredential {
  format?: unknown;
  issuer?: unknown;
  claims?: unknown;
}

export class DemoAgeCheck {
  private readonly authorization: string;

  constructor(
    /** auth-service's base URL (the gateway's first AUTH_SERVICE_URL). */
    private readonly authServiceUrl: string,
    private readonly site: typeof DEMO_SITE = DEMO_SITE,
  ) {
    this.authorization = basicAuthorization(site.clientId, site.clientSecret);
  }

  /** `POST /v2/auth/presentation-requests` with the age query. */
  async start(): Promise<AgeRequest> {
    const answer = await this.call('presentation-requests', {
      dcql_query: AGE_OVER_18_QUERY,
      purpose: AGE_CHECK_PURPOSE,
      waitTime: this.site.waitTime,
    });
    const { requestId, openid4vpUri, expiresInSeconds } = answer.body;
    if (answer.status === 404) {
      throw new DemoSiteError(
        `presentation requests are off on this stack (${authErrorMessage(answer)}); in development they need a host name, not an IP address, in PUBLIC_URL`,
        503,
      );
    }
    if (
      answer.status !== 200 ||
      typeof requestId !== 'string' ||
      !isOpenid4vpUri(openid4vpUri) ||
      typeof expiresInSeconds !== 'number'
    ) {
      throw new DemoSiteError(
        `auth-service refused the presentation request (HTTP ${answer.status}: ${authErrorMessage(answer)})`,
        502,
      );
    }
    return { requestId, openid4vpUri, expiresInSeconds };
  }

  /** `POST /v2/auth/presentation-requests/result`, turned into what the page shows. */
  async poll(requestId: string): Promise<AgeState> {
    const answer = await this.call('presentation-requests/result', { requestId });
    if (answer.status === 200) return ageStateOf(answer.body);
    const pending = pollPending(answer);
    if (pending) return pending;
    // Unknown, expired unanswered or already collected: one answer for all.
    if (answer.status === 400) return { status: 'expired', message: authErrorMessage(answer) };
    throw new DemoSiteError(
      `auth-service answered HTTP ${answer.status}: ${authErrorMessage(answer)}`,
      502,
    );
  }

  private call(endpoint: string, body: unknown): Promise<AuthAnswer> {
    return callAuthService(this.authServiceUrl, this.authorization, endpoint, body);
  }
}

/**
 * The outcome (docs/api.md §14) as the page sees it: verified only when the presented PID says
 * `age_over_18: true`; a declined or refused presentation, or a PID saying false or nothing, is
 * not verified, with the reason. Only the verdict, the issuer and the format leave this function.
 */
export function ageStateOf(outcome: Record<string, unknown>): AgeState {
  if (outcome.status === 'declined') {
    return { status: 'not-verified', reason: `the wallet declined (${String(outcome.error)})` };
  }
  if (outcome.status === 'refused') {
    return {
      status: 'not-verified',
      reason: `the platform refused the presentation (rule ${String(outcome.rule)})`,
    };
  }
  if (outcome.status !== 'verified') {
    throw new DemoSiteError(`auth-service answered an unknown outcome`, 502);
  }
  const credentials = (outcome.credentials ?? {}) as Record<string, unknown>;
  const presented = (['pid-sd-jwt', 'pid-mdoc'] as const)
    .map((id) => ({ id, first: (credentials[id] as PresentedCredential[] | undefined)?.[0] }))
    .find(({ first }) => first !== undefined);
  if (!presented?.first) {
    return { status: 'not-verified', reason: 'no PID was presented' };
  }
  const { first } = presented;
  const claims = (first.claims ?? {}) as Record<string, unknown>;
  const ageOver18 =
    presented.id === 'pid-sd-jwt'
      ? claims.age_over_18
      : (claims[PID_DOCTYPE] as Record<string, unknown> | undefined)?.age_over_18;
  if (ageOver18 !== true) {
    return {
      status: 'not-verified',
      reason:
        ageOver18 === false
          ? 'the PID says its holder is not over 18'
          : 'the PID did not disclose age_over_18',
    };
  }
  return { status: 'verified', issuer: String(first.issuer), format: String(first.format) };
}
