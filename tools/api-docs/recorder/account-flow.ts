import { DEMO_CLIENT, DEMO_USER, demoRedirectUris } from '@itp/auth-service/demo-data';
import type { AccountResponse, LoginResult } from '@itp/schemas';
import { discover, passwordFlow } from '@itp/testing/oidc-password-flow';
import type { ApiClient } from './api-client.js';
import type { RestRecorder } from './rest-recorder.js';

const AUTH = '/v2/auth';

export interface AccountFlowOptions {
  rec: RestRecorder;
  client: ApiClient;
  /** The gateway the stack answers at, and its PUBLIC_URL (the demo site's redirect URI). */
  gatewayUrl: string;
  publicUrl: string;
  /** The demo user's JWT (it stays valid: the logout everywhere is another user's). */
  bearer: string;
  /** Another user's id and password: that user logs out everywhere. */
  other: { id: string; password: string };
}

/**
 * The account (docs/api.md §12): what can log in as the user (auth-service's ways in, the
 * credentials did-service issued for the user), a site revoke that names no grant,
 * and a logout everywhere after which the token that asked is refused.
 */
export async function recordAccountExamples(options: AccountFlowOptions): Promise<void> {
  const { rec, client, bearer, other } = options;
  // The demo user logs in to the demo site through OpenID Connect: a site holding a grant.
  const [redirectUri] = demoRedirectUris(options.publicUrl).redirectUris;
  await passwordFlow(
    options.gatewayUrl,
    await discover(options.gatewayUrl),
    { id: DEMO_CLIENT.id, secret: DEMO_CLIENT.secret, redirectUri: redirectUri! },
    DEMO_USER,
  );
  await rec.ok<AccountResponse>('GET', `${AUTH}/account`, {
    bearer,
    summary: "the caller's linked addresses and the sites holding a grant",
  });
  await rec.ok('POST', `${AUTH}/revoke-site`, {
    json: { clientId: DEMO_CLIENT.id },
    bearer,
    summary: "the site's codes, access and refresh tokens end",
  });
  await rec.fails('GET', `${AUTH}/account`, 'badCredentials', {});
  await rec.ok('GET', '/v2/did/credentials', {
    bearer,
    summary: 'the credentials issued for the caller, newest first, with their status',
  });
  await rec.fails('POST', `${AUTH}/revoke-site`, 'noSiteGrant', {
    json: { clientId: DEMO_CLIENT.id },
    bearer,
  });
  await rec.bodyErrors(`${AUTH}/revoke-site`, { bearer });
  const login = await client.send('POST', `${AUTH}/auth-user`, { json: other });
  const otherBearer = (login.body as LoginResult).token;
  await rec.ok('POST', `${AUTH}/logout-everywhere`, {
    json: {},
    bearer: otherBearer,
    summary: 'every token and session of the caller ends, this one too',
  });
  await rec.fails('POST', `${AUTH}/logout-everywhere`, 'tokenEnded', {
    json: {},
    bearer: otherBearer,
  });
  await rec.bodyErrors(`${AUTH}/logout-everywhere`, { bearer });
}
