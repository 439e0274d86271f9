import { HDNodeWallet, Wallet, getAddress } from 'ethers';
import type { DidRecord, VerifiableCredentialBody } from '@itp/schemas';
import { DEMO_USER } from '@itp/auth-service/demo-data';
import {
  approveWithOpenid4vp,
  heldCredential,
  type DidChain,
  type HeldCredential,
  type Openid4vpOutcome,
} from '@itp/wallet';
import { bodyOf, type Answer, type ApiClient } from './api-client.js';
import type { RestRecorder } from './rest-recorder.js';

const AUTH = '/v2/auth';
const DID = '/v2/did';
/** What a wallet accepts when it fetches a request object. */
const REQUEST_OBJECT_ACCEPT = 'application/oauth-authz-req+jwt, application/jwt;q=0.9';

export interface Oid4vpFlowContext {
  client: ApiClient;
  rec: RestRecorder;
  /** The stack's PUBLIC_URL: the origin of the request and response URIs it hands out. */
  publicUrl: string;
  /** The dev chain the wallet resolves did:ethr DIDs on (the request object's signer). */
  chain: DidChain;
  /** The demo user's login JWT. */
  bearer: string;
  /** An issuer DID of the stack. */
  issuer: string;
  /** A relying-party page of the demo site, and its client credentials. */
  site: string;
  basic: { id: string; secret: string };
  /** Collects the holder's key material (never written; checked to be absent). */
  secrets: string[];
}

/** An HTTP exchange of the wallet with the stack, as the recorder saw it. */
interface WalletExchange {
  method: 'GET' | 'POST';
  path: string;
  /** The fields of a form body. */
  form?: Record<string, string>;
  answer: Answer;
}

/**
 * Runs the repository's wallet (`@itp/wallet`, what `itp login approve --oid4vp` runs) with
 * `fetch` watched: its calls to the stack's PUBLIC_URL go to this stack's gateway instead (the
 * stack does not listen there, see record-examples.ts), and each exchange is kept for recording.
 * Everything else (the chain) passes through untouched.
 */
async function runWallet(
  ctx: Oid4vpFlowContext,
  uri: string,
  run: (uri: string) => Promise<Openid4vpOutcome>,
): Promise<{ outcome: Openid4vpOutcome; exchanges: WalletExchange[] }> {
  const exchanges: WalletExchange[] = [];
  const original = globalThis.fetch;
  const origin = new URL(ctx.publicUrl).origin;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin) return original(input, init);
    const method = request.method as WalletExchange['method'];
    const body = method === 'POST' ? await request.text() : undefined;
    const res = await original(`${ctx.client.baseUrl}${url.pathname}${url.search}`, {
      method,
      headers: request.headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    const answer: Answer = {
      status: res.status,
      body: await bodyOf(res.clone(), `the wallet's ${method} ${url.pathname}`),
      headers: res.headers,
    };
    exchanges.push({
      method,
      path: url.pathname,
      ...(body !== undefined ? { form: Object.fromEntries(new URLSearchParams(body)) } : {}),
      answer,
    });
    return res;
  };
  try {
    return { outcome: await run(uri), exchanges };
  } finally {
    globalThis.fetch = original;
  }
}

/** The exchange of the wallet with `method` on an OpenID4VP endpoint (exactly one). */
function exchange(exchanges: WalletExchange[], method: WalletExchange['method']): WalletExchange {
  const found = exchanges.filter(
    (e) => e.method === method && e.path.startsWith(`${AUTH}/oid4vp/`),
  );
  if (found.length !== 1) {
    throw new Error(`the wallet made ${found.length} ${method} calls to ${AUTH}/oid4vp`);
  }
  return found[0] as WalletExchange;
}

/** The payload of a compact JWT (not verified: the wallet does that). */
function jwtPayload(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * OpenID4VP 1.0 web-site login (GET /v2/auth/oid4vp/request/{id}, POST
 * /v2/auth/oid4vp/response/{id}) with the repository's wallet, which holds its own key: a fresh
 * mnemonic imported with importAddress and derived locally (ethers, m/44'/60'/0'/0/0), its DID
 * bound to the demo user, a credential issued to it. The site opens login requests
 * (auth-user-by-app answers an `openid4vpUri`); the wallet fetches the request object and posts
 * its presentation. Then the refusals: the request object fetched again, the answer replayed, a
 * wrong `state`, a revoked credential.
 */
export async function recordOid4vpExamples(ctx: Oid4vpFlowContext): Promise<void> {
  const { client, rec, bearer } = ctx;
  const mnemonic = Wallet.createRandom().mnemonic?.phrase;
  if (!mnemonic) throw new Error('ethers made no mnemonic');
  const imported = (await client.rpc('/token', 'importAddress', { mnemonic })).resultData as {
    address: string;
    secretKey: string;
  };
  const key = HDNodeWallet.fromPhrase(mnemonic);
  ctx.secrets.push(mnemonic, imported.secretKey, key.privateKey, key.privateKey.slice(2));
  if (getAddress(imported.address) !== key.address) {
    throw new Error('importAddress and ethers derived different addresses from one mnemonic');
  }
  const holder = (
    await rec.ok<DidRecord>('POST', `${DID}/create-did`, {
      json: { alias: 'example-wallet', address: imported.address, secretKey: imported.secretKey },
      bearer,
    })
  ).did;
  const issue = () =>
    rec.ok<VerifiableCredentialBody>('POST', `${DID}/create-vc`, {
      json: { holder, issuer: ctx.issuer, userInfo: { name: DEMO_USER.name } },
      bearer,
    });
  const credential = heldCredential((await issue()).proof.jwt);
  const wallet = (credentials: HeldCredential[]) => (uri: string) =>
    approveWithOpenid4vp(uri, { privateKey: key.privateKey, credentials, chain: ctx.chain });
  const openLogin = async () => {
    const opened = await rec.ok<{ requestId: string; openid4vpUri?: string }>(
      'POST',
      `${AUTH}/auth-user-by-app`,
      { basic: ctx.basic, json: { requestId: ctx.site, waitTime: 120 } },
    );
    if (!opened.openid4vpUri) throw new Error('auth-user-by-app answered no openid4vpUri');
    return opened.openid4vpUri;
  };

  // The wallet logs the demo user in: it fetches the request object and posts its answer.
  const approved = await runWallet(ctx, await openLogin(), wallet([credential]));
  if (!approved.outcome.approved) {
    throw new Error(`the wallet's answer was refused: ${approved.outcome.error}`);
  }
  const fetched = exchange(approved.exchanges, 'GET');
  rec.answered('GET', fetched.path, fetched.answer, {
    summary:
      'the wallet fetches the signed request object (a compact JWT, application/oauth-authz-req+jwt)',
  });
  const posted = exchange(approved.exchanges, 'POST');
  rec.answered('POST', posted.path, posted.answer, {
    form: posted.form,
    summary: 'the wallet posts its presentation (vp_token) and the state of the request object',
  });
  await rec.failsOAuth('GET', fetched.path, 'requestGone', { accept: REQUEST_OBJECT_ACCEPT });
  await rec.failsOAuth('POST', posted.path, 'responseInvalid', { form: posted.form });

  // A wrong state (the request object fetched here, answered with the VP of the first login).
  const requestUri = new URL(new URL(await openLogin()).searchParams.get('request_uri') ?? '');
  const requestObject = await rec.ok<string>('GET', requestUri.pathname, {
    accept: REQUEST_OBJECT_ACCEPT,
  });
  const responsePath = new URL(String(jwtPayload(requestObject)['response_uri'])).pathname;
  await rec.failsOAuth('POST', responsePath, 'responseInvalid', {
    form: { vp_token: posted.form?.['vp_token'] ?? '', state: 'not-the-state-of-the-request' },
  });

  // A revoked credential: the presentation is refused (the login request stays pending).
  const revoked = await issue();
  await rec.ok('POST', `${DID}/revoke-vc`, { json: { vc: revoked }, bearer });
  const refusal = await runWallet(
    ctx,
    await openLogin(),
    wallet([heldCredential(revoked.proof.jwt)]),
  );
  const refused = exchange(refusal.exchanges, 'POST');
  rec.refused('POST', refused.path, 'accessDenied', refused.answer);
}
