/** Multi-step flows the suites share, through the gateway as a phone app or a web site runs them. */
import { getJson, ok, post, type Answer, type Json, type Wallet } from './http.js';

/** The demo user and relying party that development mode seeds in every stack. */
export const DEMO_USER = { id: 'demo', password: 'demo-password', name: 'Demo User' } as const;
export const DEMO_SITE = {
  id: 'demo-site',
  secret: 'demo-site-secret',
  requestIdPrefix: 'http://localhost:8080/',
} as const;

/** Password login of the demo user; the Authorization header of its token. */
export async function bearerOfDemoUser(gatewayUrl: string): Promise<{ authorization: string }> {
  const login = await post(`${gatewayUrl}/v2/auth/auth-user`, {
    id: DEMO_USER.id,
    password: DEMO_USER.password,
  });
  if (login.status !== 200) throw new Error(`demo login: HTTP ${login.status}`);
  return { authorization: `Bearer ${login.body.token as string}` };
}

export const newWallet = (gatewayUrl: string): Promise<Wallet> =>
  ok(gatewayUrl, '/token', 'createAddress', {});

export interface Presentation {
  did: string;
  credential: Json;
  presentation: Json;
}

/**
 * The phone app's steps: a server-wallet address, its DID under `alias`, a credential from the
 * first issuer, a presentation of it to the first verifier.
 */
export async function credentialAndPresentation(
  gatewayUrl: string,
  bearer: { authorization: string },
  alias: string,
): Promise<Presentation> {
  const wallet = await newWallet(gatewayUrl);
  const did = await post(
    `${gatewayUrl}/v2/did/create-did`,
    { alias, address: wallet.address, secretKey: wallet.secretKey },
    bearer,
  );
  if (did.status !== 200) throw new Error(`create-did: HTTP ${did.status}`);
  const issuers = (await getJson(`${gatewayUrl}/v2/did/issuers`)) as Json[];
  const verifiers = (await getJson(`${gatewayUrl}/v2/did/verifiers`)) as Json[];
  const vc = await post(
    `${gatewayUrl}/v2/did/create-vc`,
    { holder: did.body.did, issuer: issuers[0].did, userInfo: { name: DEMO_USER.name } },
    bearer,
  );
  if (vc.status !== 200) throw new Error(`create-vc: HTTP ${vc.status}`);
  const vp = await post(
    `${gatewayUrl}/v2/did/create-vp`,
    { holder: did.body.did, verifier: verifiers[0].did, credentials: [vc.body] },
    bearer,
  );
  if (vp.status !== 200) throw new Error(`create-vp: HTTP ${vp.status}`);
  return { did: did.body.did as string, credential: vc.body, presentation: vp.body };
}

/**
 * The phone app approves the web-site login `requestId` for the demo user: a fresh credential
 * and presentation (under `alias`), sent to auth-user-with-vp with the requestId. The answer.
 */
export async function approveWithPhoneApp(
  gatewayUrl: string,
  requestId: string,
  alias: string,
): Promise<Answer> {
  const { presentation } = await credentialAndPresentation(
    gatewayUrl,
    await bearerOfDemoUser(gatewayUrl),
    alias,
  );
  return post(`${gatewayUrl}/v2/auth/auth-user-with-vp`, { vp: presentation, requestId });
}
