import type { ApiClient } from './api-client.js';
import type { RestRecorder } from './rest-recorder.js';

const REQUESTS = '/v2/auth/presentation-requests';
/** What a wallet accepts when it fetches a request object. */
const REQUEST_OBJECT_ACCEPT = 'application/oauth-authz-req+jwt, application/jwt;q=0.9';
/** More than LOGIN_POLL_MIN_INTERVAL_MS (1 s by default): the next poll is not slow_down. */
const POLL_PAUSE_MS = 1_500;

export interface PresentationFlowContext {
  client: ApiClient;
  rec: RestRecorder;
  /** The demo site's client credentials. */
  basic: { id: string; secret: string };
}

/** "Over 18, from a PID", either format (docs/api.md §14). */
const AGE_QUERY = {
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['urn:eudi:pid:1'] },
      claims: [{ path: ['age_over_18'] }],
    },
    {
      id: 'pid_mdoc',
      format: 'mso_mdoc',
      meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' },
      claims: [{ path: ['eu.europa.ec.eudi.pid.1', 'age_over_18'] }],
    },
  ],
  credential_sets: [{ options: [['pid'], ['pid_mdoc']] }],
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The payload of a compact JWT (not verified: the wallet does that). */
function jwtPayload(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * Presentation requests (docs/api.md §14): the demo site asks for age_over_18 from a PID, polls
 * while the wallet has not answered, and collects the outcome once — here a wallet whose user
 * declines (its error response, OpenID4VP 1.0 §8.5: a verified outcome needs an EUDI wallet's
 * credentials, which the dev stack does not issue). Then the refusals: an unsupported query,
 * no client credentials, the outcome asked for again.
 */
export async function recordPresentationExamples(ctx: PresentationFlowContext): Promise<void> {
  const { client, rec, basic } = ctx;
  const created = await rec.ok<{ requestId: string; openid4vpUri: string }>('POST', REQUESTS, {
    basic,
    json: { dcql_query: AGE_QUERY, purpose: 'Age check', waitTime: 120 },
    summary:
      'the site asks for age_over_18 from an EUDI PID, as an SD-JWT VC or an mdoc (its openid4vpUri goes into a QR code)',
  });
  await rec.fails('POST', REQUESTS, 'dcqlRefused', {
    basic,
    json: {
      dcql_query: {
        credentials: [{ id: 'vc', format: 'ldp_vc', meta: { type_values: [['Diploma']] } }],
      },
    },
  });
  await rec.fails('POST', REQUESTS, 'invalidClient', { json: { dcql_query: AGE_QUERY } });
  const poll = { basic, json: { requestId: created.requestId } };
  await rec.fails('POST', `${REQUESTS}/result`, 'presentationPending', poll);
  await rec.fails('POST', `${REQUESTS}/result`, 'slowDown', poll);

  // The wallet fetches the request object and declines (an error response with its state).
  const requestUri = new URL(new URL(created.openid4vpUri).searchParams.get('request_uri') ?? '')
    .pathname;
  const requestObject = (await client.send('GET', requestUri, { accept: REQUEST_OBJECT_ACCEPT }))
    .body as string;
  const { state, response_uri: responseUri } = jwtPayload(requestObject);
  const declined = await client.send('POST', new URL(String(responseUri)).pathname, {
    form: { error: 'access_denied', state: String(state) },
  });
  if (declined.status !== 200) throw new Error(`the wallet's error response: ${declined.status}`);
  await pause(POLL_PAUSE_MS);
  await rec.ok('POST', `${REQUESTS}/result`, {
    ...poll,
    summary:
      'the outcome, once: here the user declined in the wallet (a verified one lists each credential query’s credentials with only the claims asked for)',
  });
  await pause(POLL_PAUSE_MS);
  await rec.fails('POST', `${REQUESTS}/result`, 'presentationRequestGone', poll);
}
