import { randomBytes } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { waitFor } from '@itp/testing/wait-for';
import { basic, bearer, type RestAnswer, type RpcAnswer } from '../client/api.js';
import type { Flows, Wallet } from '../client/flows.js';
import type { Answer } from '../client/http.js';
import {
  authorizationCode,
  discover,
  redeemCode,
  refresh,
  type OidcClient,
  type TokenAnswer,
} from '../client/oidc.js';
import {
  credentialNonce,
  credentialProof,
  fetchOid4vpRequest,
  newDidJwkKey,
  oid4vpAnswer,
  postOid4vpAnswer,
  redeemPreAuthorizedCode,
  requestCredential,
  takeCredentialOffer,
} from '../client/wallets.js';
import type { RaceOutcome } from '../races/run-races.js';
import { query } from '../stack/records.js';
import type { Stack } from '../stack/start-stack.js';
import { SINK, flowsAs, rpcOutcome } from './support.js';

const IP = '203.0.113.34';
/** The relying party this check registers for its OpenID Connect logins. */
const RP_ID = 'res-rp-restore';
/** Never visited: the scripted browser stops at the redirect and reads the code from it. */
const RP_REDIRECT = 'http://127.0.0.1:9/rp/callback';
/** oidc-provider's AuthorizationCode lifetime (auth-service): a code older than this proves nothing. */
const CODE_TTL_MS = 60_000;
/** How long a replay that meets a 503 (a service still reconnecting to Redis) is tried again. */
const SETTLE_MS = 15_000;

/** Figures of the check: each one-time rule as a line, and how the restore went. */
export interface RedisRestoreFigures {
  outcomes: RaceOutcome[];
  /** Keys in Redis when the snapshot was taken. */
  snapshotKeys: number;
  /** From the snapshot to the restore: the uses Redis forgot. */
  snapshotAgeMs: number;
  /** LocalRedis.restore(): stop, the RDB back, start, loaded, the append-only file rewritten. */
  restoreMs: number;
  /** From the restore's end to the first correct-password login through the gateway (null: none in 20 s). */
  servingAgainMs: number | null;
  /** Replays made after the restore (each must be refused or answered as the first use was). */
  replays: number;
  /** Of those, the ones a one-time rule let through a second time. */
  accepted: number;
}

/**
 * `call` again while `unavailable` holds for its answer (a service reconnecting to the restored
 * Redis), up to SETTLE_MS; then its last answer, whatever it is. A `call` that throws ends the
 * wait with its error (never called again: the calls replay one-time things).
 */
async function retriedWhile<T>(
  call: () => Promise<T>,
  unavailable: (answer: T) => boolean,
): Promise<T> {
  let last: T | undefined;
  const outcome = await waitFor(
    async () => {
      try {
        last = await call();
      } catch (error) {
        return { error };
      }
      return !unavailable(last) && { answer: last };
    },
    {
      what: 'an answer other than 503 after Redis was restored',
      timeoutMs: SETTLE_MS,
      intervalMs: 200,
    },
  ).catch(() => ({ answer: last as T })); // still 503 at the deadline: that answer is the outcome
  if ('error' in outcome) throw outcome.error;
  return outcome.answer;
}

/** `call` again while it answers 503 (a service reconnecting to the restored Redis), up to SETTLE_MS. */
const decided = <T extends Answer>(call: () => Promise<T>): Promise<T> =>
  retriedWhile(call, (answer) => {
    const rpc = answer as Partial<RpcAnswer>;
    return answer.status === 503 || rpc.result?.resultCode === '503';
  });

/** The same for the token endpoint's answers (plain fetch). */
const decidedToken = (call: () => Promise<TokenAnswer>): Promise<TokenAnswer> =>
  retriedWhile(call, (answer) => answer.status === 503);

/** `status` and the OAuth `error` of an answer, e.g. "400 invalid_grant". */
const oauth = (a: { status: number; body?: unknown }): string => {
  const error = (a.body as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? `${a.status} ${error}` : String(a.status);
};

async function waitForLogin(flows: Flows, id: string, password: string): Promise<number | null> {
  const started = Date.now();
  return waitFor(async () => (await flows.api.login(id, password)).status === 200, {
    what: `user ${id} to log in again`,
    timeoutMs: 20_000,
    intervalMs: 100,
  }).then(
    () => Date.now() - started,
    () => null, // not serving again within 20 s: the figures say so
  );
}

/** A fresh EIP-4361 message for `account` with a nonce of the service, signed. */
async function siweSigned(
  flows: Flows,
  account: PrivateKeyAccount,
): Promise<{ message: string; signature: string }> {
  const issued = await flows.api.rest('/v2/auth/siwe/nonce', {});
  const n = issued.body as { domain?: string; uri?: string; chainId?: number; nonce?: string };
  if (issued.status !== 200 || !n.nonce || !n.domain || !n.uri || !n.chainId) {
    throw new Error(`siwe/nonce: ${issued.status} ${issued.text}`);
  }
  const message = createSiweMessage({
    domain: n.domain,
    address: account.address,
    uri: n.uri,
    version: '1',
    chainId: n.chainId,
    nonce: n.nonce,
    issuedAt: new Date(),
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** The login token of an answer, into the ledger (the secret scan looks for it). */
function noteToken(flows: Flows, answer: RestAnswer): void {
  const token = (answer.body as { token?: unknown } | undefined)?.token;
  if (typeof token === 'string') flows.ledger.add('jwt', token);
}

/**
 * Redis restored from a snapshot taken BEFORE one use of each one-time thing (a failover to a
 * replica that lagged, a restore from a backup): nothing may happen twice. Everything is issued
 * first (a signed tempKey, an OpenID Connect code, a refresh token, an OpenID4VP request, a SIWE
 * nonce, a login VP, an approved QR login, OpenID4VCI offers and a c_nonce); then the snapshot;
 * then each is used once; then Redis is restored — it holds every one of them as unused again —
 * and each use is replayed. Refused each time, with the answer of a used one; the identical
 * transfer retry answers the ORIGINAL TransactionID with exactly one transaction for its tempKey
 * (database and chain); the current refresh token still works. A rule that Redis decides alone
 * fails here; one that SQL decides (Redis at most a cache in front of it) holds.
 */
export async function checkRedisRestored(stack: Stack, flows: Flows): Promise<RedisRestoreFigures> {
  const own = flowsAs(flows, IP);
  const { api } = own;
  const gw = stack.gatewayUrl;
  const user = stack.accounts.users[2]!;
  const site = basic(stack.accounts.client.id, stack.accounts.client.secret);
  const rp: OidcClient = {
    id: RP_ID,
    secret: `rp-${randomBytes(18).toString('base64url')}`,
    redirectUri: RP_REDIRECT,
  };
  own.ledger.add('serviceSecret', rp.secret);

  // ── Issued before the snapshot ─────────────────────────────────────────────────────────────
  const [, endpoints, token] = await Promise.all([
    stack.operator(
      [
        'clients',
        'add',
        RP_ID,
        '--prefix',
        'http://rp.example/',
        '--redirect-uri',
        RP_REDIRECT,
        '--secret-stdin',
      ],
      rp.secret,
    ),
    discover(gw),
    own.login(user.id, user.password),
  ]);

  // A holder whose key the suite holds (imported mnemonic), its DID bound to the user.
  const phrase = HDNodeWallet.createRandom().mnemonic?.phrase ?? '';
  own.noteMnemonic(phrase);
  const holderWallet: Wallet = own.noteWallet(
    await api.ok('/token', 'importAddress', { mnemonic: phrase }),
  );
  const holderKey = HDNodeWallet.fromPhrase(phrase).privateKey;
  const did = await own.createDid(holderWallet, 'restore-phone', token);
  const holderDid = (did.body as { did?: string } | undefined)?.did;
  if (!holderDid) throw new Error(`create-did: ${did.status} ${did.text}`);

  // A transfer: tempKey and signature, not sent.
  const payer = await own.createAddress();
  await own.fund(stack.chain, payer.address);
  const transfer = await own.transferParams(payer, SINK, '3131');

  // A login VP; an approved QR (web-site) login, not collected.
  const loginVp = await own.loginVp(token, holderDid);
  // A VP for approving the OpenID4VP login request once more after the restore (see below).
  const lateApprovalVp = await own.loginVp(token, holderDid);
  const qr = await api.rest(
    '/v2/auth/auth-user-by-app',
    { requestId: `${stack.accounts.client.prefix}restore-qr?`, waitTime: 120 },
    site,
  );
  const qrRequestId = (qr.body as { requestId?: string } | undefined)?.requestId;
  if (!qrRequestId) throw new Error(`auth-user-by-app: ${qr.status} ${qr.text}`);
  const approved = await api.rest('/v2/auth/auth-user-with-vp', {
    vp: await own.loginVp(token, holderDid),
    requestId: qrRequestId,
  });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
  noteToken(own, approved);

  // An OpenID4VP login request, its request object fetched and the wallet's answer made.
  const vp4 = await api.rest(
    '/v2/auth/auth-user-by-app',
    {
      requestId: `${stack.accounts.client.prefix}restore-oid4vp?`,
      waitTime: 120,
    },
    site,
  );
  const vp4Body = vp4.body as { requestId?: string; openid4vpUri?: string } | undefined;
  if (!vp4Body?.requestId || !vp4Body.openid4vpUri) {
    throw new Error(`auth-user-by-app (OpenID4VP): ${vp4.status} ${vp4.text}`);
  }
  const vp4RequestId = vp4Body.requestId;
  const vp4Request = await fetchOid4vpRequest(gw, vp4Body.openid4vpUri, IP);
  const issued = await api.rest(
    '/v2/did/create-vc',
    { holder: holderDid, issuer: await own.serviceDid('issuers'), userInfo: {} },
    bearer(token),
  );
  const vcJwt = (issued.body as { proof?: { jwt?: string } } | undefined)?.proof?.jwt;
  if (issued.status !== 200 || !vcJwt)
    throw new Error(`create-vc: ${issued.status} ${issued.text}`);
  const vp4Form = await oid4vpAnswer(vp4Request, { did: holderDid, privateKey: holderKey }, vcJwt);

  // Sign-In with Ethereum: an address linked to the user, and a message signed with a fresh nonce.
  const siweKey = generatePrivateKey();
  own.ledger.add('privateKey', siweKey);
  const account = privateKeyToAccount(siweKey);
  const linked = await api.rest(
    '/v2/auth/link-address',
    await siweSigned(own, account),
    bearer(token),
  );
  if (linked.status !== 200) throw new Error(`link-address: ${linked.status} ${linked.text}`);
  const siwe = await siweSigned(own, account);

  // OpenID4VCI: two offers (codes read from them), a c_nonce and a proof with it.
  const [offer, spareOffer, wallet] = await Promise.all([
    takeCredentialOffer(gw, token, IP),
    takeCredentialOffer(gw, token, IP),
    newDidJwkKey(),
  ]);
  const proof = await credentialProof(offer, wallet, await credentialNonce(gw, offer, IP));

  // OpenID Connect: a refresh token (offline_access), and a code not redeemed — last, it lives 60 s.
  const first = await authorizationCode(gw, endpoints, rp, user, { offline: true, ip: IP });
  const firstTokens = await redeemCode(endpoints, rp, first, IP);
  const refresh1 = firstTokens.body.refresh_token;
  if (firstTokens.status !== 200 || !refresh1) {
    throw new Error(`OpenID Connect code (offline_access): ${oauth(firstTokens)}`);
  }
  const code = await authorizationCode(gw, endpoints, rp, user, { ip: IP });
  const codeIssuedAt = Date.now();

  // ── The snapshot, then one use of each ─────────────────────────────────────────────────────
  const snapshot = await stack.redis.snapshot();

  const sent = await own.transfer(transfer);
  const redeemed = await redeemCode(endpoints, rp, code, IP);
  const rotated = await refresh(endpoints, rp, refresh1, IP);
  const refresh2 = rotated.body.refresh_token;
  const vp4Posted = await postOid4vpAnswer(gw, vp4Request, vp4Form, IP);
  const vp4Poll = await api.rest(
    '/v2/auth/auth-user-result-by-app',
    { requestId: vp4RequestId },
    site,
  );
  noteToken(own, vp4Poll);
  const siweLogin = await api.rest('/v2/auth/auth-user-with-siwe', siwe);
  noteToken(own, siweLogin);
  const vpLogin = await api.rest('/v2/auth/auth-user-with-vp', { vp: loginVp });
  noteToken(own, vpLogin);
  const qrPoll = await api.rest(
    '/v2/auth/auth-user-result-by-app',
    { requestId: qrRequestId },
    site,
  );
  noteToken(own, qrPoll);
  const vciToken = await redeemPreAuthorizedCode(gw, offer, IP);
  const accessToken = vciToken.body?.access_token;
  const credential =
    typeof accessToken === 'string'
      ? await requestCredential(gw, offer, accessToken, proof, IP)
      : undefined;

  // ── Redis back at the snapshot ─────────────────────────────────────────────────────────────
  const restoreStarted = Date.now();
  await stack.redis.restore(snapshot);
  const restoreMs = Date.now() - restoreStarted;
  const servingAgainMs = await waitForLogin(own, user.id, user.password);

  // ── Every use replayed ─────────────────────────────────────────────────────────────────────
  const retried = await decided(() => own.transfer(transfer));
  const [rows, chainNonce] = await Promise.all([
    query<{ n: string }>(
      stack.databaseUrl,
      `SELECT count(*) AS n FROM token_transactions WHERE lower(from_address) = lower($1)`,
      [payer.address],
    ),
    stack.chain.call<string>('eth_getTransactionCount', [payer.address, 'pending']),
  ]);
  const current = refresh2
    ? await decidedToken(() => refresh(endpoints, rp, refresh2, IP))
    : undefined;
  const reusedRefresh = await decidedToken(() => refresh(endpoints, rp, refresh1, IP));
  const reusedCode = await decidedToken(() => redeemCode(endpoints, rp, code, IP));
  const codeAgeMs = Date.now() - codeIssuedAt;
  const vp4Replay = await decided(() => postOid4vpAnswer(gw, vp4Request, vp4Form, IP));
  const vp4PollAgain = await decided(() =>
    api.rest('/v2/auth/auth-user-result-by-app', { requestId: vp4RequestId }, site),
  );
  noteToken(own, vp4PollAgain);
  // The restored Redis holds that login request as pending: approved once more (the phone app's
  // way, another fresh VP), it must still give the site no second login result.
  const vp4Reapproved = await decided(() =>
    api.rest('/v2/auth/auth-user-with-vp', { vp: lateApprovalVp, requestId: vp4RequestId }),
  );
  noteToken(own, vp4Reapproved);
  const vp4PollLast = await decided(() =>
    api.rest('/v2/auth/auth-user-result-by-app', { requestId: vp4RequestId }, site),
  );
  noteToken(own, vp4PollLast);
  const siweAgain = await decided(() => api.rest('/v2/auth/auth-user-with-siwe', siwe));
  noteToken(own, siweAgain);
  const vpAgain = await decided(() => api.rest('/v2/auth/auth-user-with-vp', { vp: loginVp }));
  noteToken(own, vpAgain);
  const qrAgain = await decided(() =>
    api.rest('/v2/auth/auth-user-result-by-app', { requestId: qrRequestId }, site),
  );
  noteToken(own, qrAgain);
  const vciCodeAgain = await decided(() => redeemPreAuthorizedCode(gw, offer, IP));
  const credentialAgain =
    typeof accessToken === 'string'
      ? await decided(() => requestCredential(gw, offer, accessToken, proof, IP))
      : undefined;
  // The c_nonce on its own: a fresh access token (the spare offer's code, never used), the
  // spent proof.
  const spareToken = await decided(() => redeemPreAuthorizedCode(gw, spareOffer, IP));
  const spareAccess = spareToken.body?.access_token;
  const nonceAgain =
    typeof spareAccess === 'string'
      ? await decided(() => requestCredential(gw, spareOffer, spareAccess, proof, IP))
      : undefined;

  // ── The lines ──────────────────────────────────────────────────────────────────────────────
  const outcomes: RaceOutcome[] = [];
  const firstId = sent.result?.TransactionID;
  const sameId = Boolean(firstId) && retried.result?.TransactionID === firstId;
  const txRows = Number(rows[0]?.n ?? 0);
  const txOnChain = Number(BigInt(chainNonce));
  outcomes.push({
    name: 'transfer: the identical retry of a tempKey used after the snapshot',
    expected: 'the original TransactionID; 1 transaction (database and chain)',
    observed: `first ${rpcOutcome(sent)}; retry ${rpcOutcome(retried)} ${
      sameId
        ? 'same TransactionID'
        : `TransactionID ${retried.result?.TransactionID ? 'another' : 'none'}`
    }; ${txRows} transaction row(s), chain nonce ${txOnChain}`,
    passed: sent.result?.resultCode === '200' && sameId && txRows === 1 && txOnChain === 1,
  });
  outcomes.push({
    name: 'OpenID Connect: an authorization code redeemed after the snapshot, redeemed again',
    expected: `first 200; again 400 invalid_grant (within the code's ${CODE_TTL_MS / 1000} s)`,
    observed: `first ${oauth(redeemed)}; again ${oauth(reusedCode)} (code ${Math.round(codeAgeMs / 1000)} s old)`,
    passed:
      redeemed.status === 200 &&
      oauth(reusedCode) === '400 invalid_grant' &&
      codeAgeMs < CODE_TTL_MS,
  });
  outcomes.push({
    name: 'OpenID Connect: a refresh token rotated after the snapshot',
    expected: 'rotation 200; then the current token 200, the rotated one 400 invalid_grant',
    observed: `rotation ${oauth(rotated)}; current ${current ? oauth(current) : 'none'}, rotated ${oauth(reusedRefresh)}`,
    passed:
      rotated.status === 200 &&
      current?.status === 200 &&
      oauth(reusedRefresh) === '400 invalid_grant',
  });
  // After the replay the site must get no second login result for the request: its poll 400
  // (handed out), or 401 while the restored Redis holds the request as pending (the answer came
  // after the snapshot) until it expires — also after the request is approved once more.
  const noSecondResult = (status: number) => status === 400 || status === 401;
  outcomes.push({
    name: 'OpenID4VP: a wallet answer posted after the snapshot, posted again; the site polls again, also after the request is approved once more',
    expected: 'answer 200, poll 200; again: answer 400, polls 400 or 401 (no second login result)',
    observed: `answer ${oauth(vp4Posted)}, poll ${vp4Poll.status}; again: answer ${oauth(vp4Replay)}, poll ${vp4PollAgain.status}; approved once more ${vp4Reapproved.status}, poll ${vp4PollLast.status}`,
    passed:
      vp4Posted.status === 200 &&
      vp4Poll.status === 200 &&
      vp4Replay.status === 400 &&
      noSecondResult(vp4PollAgain.status) &&
      noSecondResult(vp4PollLast.status),
  });
  outcomes.push({
    name: 'Sign-In with Ethereum: a message whose nonce was used after the snapshot',
    expected: 'login 200; again 401',
    observed: `login ${siweLogin.status}; again ${siweAgain.status}`,
    passed: siweLogin.status === 200 && siweAgain.status === 401,
  });
  outcomes.push({
    name: 'VP login: a VP used after the snapshot',
    expected: 'login 200; again 401',
    observed: `login ${vpLogin.status}; again ${vpAgain.status}`,
    passed: vpLogin.status === 200 && vpAgain.status === 401,
  });
  outcomes.push({
    name: 'QR (web-site) login: an approval collected after the snapshot',
    expected: 'poll 200; again 400',
    observed: `poll ${qrPoll.status}; again ${qrAgain.status}`,
    passed: qrPoll.status === 200 && qrAgain.status === 400,
  });
  outcomes.push({
    name: 'OpenID4VCI: a pre-authorized code redeemed after the snapshot (and its credential request)',
    expected: 'token 200, credential 200; again: token 400 invalid_grant, credential refused (4xx)',
    observed: `token ${oauth(vciToken)}, credential ${credential ? oauth(credential) : 'not asked'}; again: token ${oauth(vciCodeAgain)}, credential ${credentialAgain ? oauth(credentialAgain) : 'not asked'}`,
    passed:
      vciToken.status === 200 &&
      credential?.status === 200 &&
      oauth(vciCodeAgain) === '400 invalid_grant' &&
      credentialAgain !== undefined &&
      credentialAgain.status >= 400 &&
      credentialAgain.status < 500,
  });
  outcomes.push({
    name: 'OpenID4VCI: a c_nonce spent after the snapshot, in a proof with a fresh access token',
    expected: 'fresh token 200; proof 400 invalid_nonce',
    observed: `fresh token ${oauth(spareToken)}; proof ${nonceAgain ? oauth(nonceAgain) : 'not asked'}`,
    passed:
      spareToken.status === 200 &&
      nonceAgain !== undefined &&
      oauth(nonceAgain) === '400 invalid_nonce',
  });

  // A replay that a one-time rule let through: the answer of a first use, a second time.
  const accepted = [
    retried.result?.resultCode === '200' && !sameId,
    reusedCode.status === 200,
    reusedRefresh.status === 200,
    vp4Replay.status === 200,
    vp4PollAgain.status === 200,
    vp4PollLast.status === 200,
    siweAgain.status === 200,
    vpAgain.status === 200,
    qrAgain.status === 200,
    vciCodeAgain.status === 200,
    credentialAgain?.status === 200,
    nonceAgain?.status === 200,
  ];
  return {
    outcomes,
    snapshotKeys: snapshot.keys,
    snapshotAgeMs: restoreStarted - snapshot.takenAt,
    restoreMs,
    servingAgainMs,
    replays: accepted.length,
    accepted: accepted.filter(Boolean).length,
  };
}
