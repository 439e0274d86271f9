import type {
  DidRecord,
  LoginResult,
  RestEndpointExamples,
  RevokeVcResult,
  ServiceDidList,
  VerifiableCredentialBody,
} from '@itp/schemas';
import { DEMO_CLIENT, DEMO_USER } from '@itp/auth-service/demo-data';
import type { DidChain } from '@itp/wallet';
import type { ApiClient, SendOptions } from './api-client.js';
import { recordOid4vpExamples } from './oid4vp-flow.js';
import { recordAccountExamples } from './account-flow.js';
import { recordPasskeyExamples } from './passkey-flow.js';
import { recordPresentationExamples } from './presentation-flow.js';
import { recordSiweExamples } from './siwe-flow.js';
import { SECRET_KEY_PLACEHOLDER } from './placeholders.js';
import { RestRecorder } from './rest-recorder.js';

const AUTH = '/v2/auth';
const DID = '/v2/did';
/** A page of the demo relying party (its registered prefix is http://localhost:8080/). */
const SITE = 'http://localhost:8080/example-site?';
const ELSEWHERE = 'https://elsewhere.example/?';
/** A little over auth-service's LOGIN_POLL_MIN_INTERVAL_MS default (1 s). */
const POLL_PAUSE_MS = 1_500;
/** auth-service's LOGIN_MAX_FAILURES_PER_ID default: the next failure is answered 429. */
const MAX_FAILURES_PER_ID = 5;
/** Above its LOGIN_MAX_FAILURES_PER_IP default (50). */
const MAX_FAILURES_PER_IP = 60;
/** A well-formed list id (22 base64url characters) that no status list has. */
const UNKNOWN_LIST_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Wallet {
  address: string;
  secretKey: string;
}

export interface RestFlowOptions {
  /** A user of the stack besides the demo user (the owner of "another user's" credential). */
  otherUser: { id: string; password: string };
  /** The stack's PUBLIC_URL (the origin of the OpenID4VP request and response URIs). */
  publicUrl: string;
  /** The dev chain (where the OpenID4VP wallet resolves the verifier's did:ethr DID). */
  chain: DidChain;
  /** Collects secrets that never reach a recorded body (the wallet's key), to check for. */
  secrets: string[];
}

/** The JWT with the signature of another JWT: well formed, but not what its issuer signed. */
const withForeignSignature = (jwt: string, other: string): string =>
  `${jwt.slice(0, jwt.lastIndexOf('.'))}${other.slice(other.lastIndexOf('.'))}`;

/**
 * Every REST endpoint of /v2/auth and /v2/did the way an integrator meets them (the demo user,
 * its wallet, DID, credential and presentation, a QR login approved by the phone app, one
 * cancelled, one approved by an OpenID4VP wallet, two more credentials revoked and their status
 * list), then the error answers that a
 * dev stack can give on purpose. Outages (503) and bugs (500) cannot be provoked: their examples
 * stay the catalog lines.
 */
export async function recordRestExamples(
  client: ApiClient,
  options: RestFlowOptions,
): Promise<Record<string, RestEndpointExamples>> {
  const rec = new RestRecorder(client);
  const basic = { id: DEMO_CLIENT.id, secret: DEMO_CLIENT.secret };
  const password = { id: DEMO_USER.id, password: DEMO_USER.password };

  await rec.ok('GET', `${AUTH}/.well-known/jwks.json`, { summary: 'the current signing key' });
  const login = await rec.ok<LoginResult>('POST', `${AUTH}/auth-user`, {
    json: password,
    summary: 'password login (the dev demo user)',
  });
  const bearer = login.token;
  await rec.ok('POST', `${AUTH}/auth-user`, {
    json: { ...password, token: bearer },
    summary: 'password login that extends a token',
  });
  const issuers = await rec.ok<ServiceDidList>('GET', `${DID}/issuers`, {
    summary: 'the issuer DIDs of a dev stack',
  });
  const verifiers = await rec.ok<ServiceDidList>('GET', `${DID}/verifiers`, {
    summary: 'the verifier DIDs of a dev stack',
  });
  const issuer = issuers[0]?.did as string;
  const verifier = verifiers[0]?.did as string;

  const newWallet = async () =>
    (await client.rpc('/token', 'createAddress', {})).resultData as Wallet;
  const wallet = await newWallet();
  const record = await rec.ok<DidRecord>('POST', `${DID}/create-did`, {
    json: { alias: 'example-phone', address: wallet.address, secretKey: wallet.secretKey },
    bearer,
    summary: 'a DID for a wallet address, bound to the user of the bearer JWT',
  });
  const holder = record.did;
  const vc = await rec.ok<VerifiableCredentialBody>('POST', `${DID}/create-vc`, {
    json: { holder, issuer, userInfo: { name: DEMO_USER.name, email: DEMO_USER.email } },
    bearer,
    summary: 'a credential about the logged-in user',
  });
  await rec.ok('POST', `${DID}/verify-vc`, { json: vc, summary: 'a credential of this service' });
  const edited = { ...vc, credentialSubject: { ...vc.credentialSubject, name: 'Someone Else' } };
  await rec.ok('POST', `${DID}/verify-vc`, {
    json: edited,
    summary: 'a credential whose JSON was edited after issuance: verified false (HTTP 200)',
  });
  const presentation = (summary?: string) =>
    rec.ok<Record<string, unknown>>('POST', `${DID}/create-vp`, {
      json: { holder, verifier, credentials: [vc] },
      bearer,
      ...(summary ? { summary } : {}),
    });
  const vp = await presentation('present the credential to a verifier DID of the service');
  await rec.ok('POST', `${DID}/verify-vp`, { json: vp, summary: 'a presentation of create-vp' });
  await rec.ok('POST', `${DID}/verify-vp`, {
    json: { ...vp, verifier: [holder] },
    summary: 'a presentation whose JSON was edited: verified false (HTTP 200)',
  });

  // A QR (web-site) login: the site opens it, polls, the phone app approves with a VP.
  const opened = await rec.ok<{ requestId: string }>('POST', `${AUTH}/auth-user-by-app`, {
    basic,
    json: { requestId: SITE, waitTime: 120 },
    summary: 'the web site opens a login request (its requestId goes into the QR code)',
  });
  const poll = { basic, json: { requestId: opened.requestId } };
  await rec.fails('POST', `${AUTH}/auth-user-result-by-app`, 'stillWaiting', poll);
  await rec.fails('POST', `${AUTH}/auth-user-result-by-app`, 'slowDown', poll);
  const loginVp = await presentation();
  await rec.ok('POST', `${AUTH}/auth-user-with-vp`, {
    json: { vp: loginVp, requestId: opened.requestId },
    summary: 'the phone app approves the login request of the QR code',
  });
  await rec.fails('POST', `${AUTH}/auth-user-with-vp`, 'badCredentials', {
    json: { vp: loginVp, requestId: opened.requestId },
  });
  await rec.ok('POST', `${AUTH}/auth-user-with-vp`, {
    json: { vp: await presentation() },
    summary: 'login in the phone app itself (no requestId)',
  });
  await pause(POLL_PAUSE_MS);
  await rec.ok('POST', `${AUTH}/auth-user-result-by-app`, {
    ...poll,
    summary: 'the result, once the phone app approved',
  });
  await pause(POLL_PAUSE_MS);
  await rec.fails('POST', `${AUTH}/auth-user-result-by-app`, 'loginRequestGone', poll);
  const second = await rec.ok<{ requestId: string }>('POST', `${AUTH}/auth-user-by-app`, {
    basic,
    json: { requestId: SITE, waitTime: 60 },
  });
  await rec.ok('POST', `${AUTH}/cancel-auth-user-by-app`, {
    basic,
    json: { requestId: second.requestId },
    summary: 'the web site gives up its login request',
  });
  // Cancelling twice is fine; cancelling one whose result was handed out is not.
  await rec.fails('POST', `${AUTH}/cancel-auth-user-by-app`, 'loginRequestGone', poll);

  // The same QR login answered by an OpenID4VP wallet (the openid4vpUri of auth-user-by-app).
  await recordOid4vpExamples({
    client,
    rec,
    publicUrl: options.publicUrl,
    chain: options.chain,
    bearer,
    issuer,
    site: SITE,
    basic,
    secrets: options.secrets,
  });

  // Auth errors.
  await rec.fails('POST', `${AUTH}/auth-user`, 'badCredentials', {
    json: { id: DEMO_USER.id, password: 'not-the-password' },
  });
  await rec.fails('POST', `${AUTH}/auth-user-with-vp`, 'loginRequestGone', {
    json: { vp: await presentation(), requestId: `${SITE}requestId=1` },
  });
  const wrongClient = { id: DEMO_CLIENT.id, secret: 'not-the-client-secret' };
  for (const path of ['auth-user-by-app', 'cancel-auth-user-by-app', 'auth-user-result-by-app']) {
    await rec.fails('POST', `${AUTH}/${path}`, 'invalidClient', {
      basic: wrongClient,
      json: { requestId: SITE },
    });
  }
  await rec.fails('POST', `${AUTH}/auth-user-by-app`, 'forbidden', {
    basic,
    json: { requestId: ELSEWHERE },
  });
  await rec.bodyErrors(`${AUTH}/auth-user`);
  await rec.bodyErrors(`${AUTH}/auth-user-with-vp`);
  for (const path of ['auth-user-by-app', 'cancel-auth-user-by-app', 'auth-user-result-by-app']) {
    await rec.bodyErrors(`${AUTH}/${path}`, { basic });
  }

  // DID errors.
  const unbound = await newWallet();
  const unboundDid = (
    await rec.ok<DidRecord>('POST', `${DID}/create-did`, {
      json: { alias: 'example-unbound', address: unbound.address, secretKey: unbound.secretKey },
    })
  ).did;
  await rec.fails('POST', `${DID}/create-did`, 'unauthenticated', {
    json: { alias: 'example-phone', address: wallet.address, secretKey: wallet.secretKey },
    bearer: 'not-a-jwt',
  });
  await rec.fails('POST', `${DID}/create-did`, 'badWalletSecret', {
    json: { alias: 'example-phone', address: wallet.address, secretKey: SECRET_KEY_PLACEHOLDER },
  });
  const vcRequest = { holder, issuer, userInfo: { name: DEMO_USER.name } };
  await rec.fails('POST', `${DID}/create-vc`, 'unauthenticated', { json: vcRequest });
  await rec.fails('POST', `${DID}/create-vc`, 'notOurs', {
    json: { ...vcRequest, issuer: holder },
    bearer,
  });
  await rec.fails('POST', `${DID}/create-vc`, 'notBound', {
    json: { ...vcRequest, holder: unboundDid },
    bearer,
  });
  const vpRequest = { holder, verifier, credentials: [vc] };
  await rec.fails('POST', `${DID}/create-vp`, 'unauthenticated', { json: vpRequest });
  await rec.fails('POST', `${DID}/create-vp`, 'notOurs', {
    json: { ...vpRequest, verifier: holder },
    bearer,
  });
  await rec.fails('POST', `${DID}/create-vp`, 'notBound', {
    json: { ...vpRequest, holder: unboundDid },
    bearer,
  });
  const { proof: _vcProof, ...vcWithoutProof } = vc;
  await rec.fails('POST', `${DID}/verify-vc`, 'notOurs', { json: vcWithoutProof });
  const { proof: _vpProof, ...vpWithoutProof } = vp;
  await rec.fails('POST', `${DID}/verify-vp`, 'notOurs', { json: vpWithoutProof });
  await rec.bodyErrors(`${DID}/create-did`);
  await rec.bodyErrors(`${DID}/create-vc`, { bearer });
  await rec.bodyErrors(`${DID}/verify-vc`);
  await rec.bodyErrors(`${DID}/create-vp`, { bearer });
  await rec.bodyErrors(`${DID}/verify-vp`);

  // Revocation: two more credentials (the first one stays valid for the presentations and logins
  // here), revoked by their user, one as create-vc answered it, one as its JWT; their status list
  // then has both bits set.
  const issue = () =>
    rec.ok<VerifiableCredentialBody>('POST', `${DID}/create-vc`, { json: vcRequest, bearer });
  const revokedVc = await issue();
  const revokedJwt = (await issue()).proof.jwt;
  const revocation = await rec.ok<RevokeVcResult>('POST', `${DID}/revoke-vc`, {
    json: { vc: revokedVc },
    bearer,
    summary: 'the user revokes a credential of theirs (as create-vc answered it)',
  });
  await rec.ok('POST', `${DID}/revoke-vc`, {
    json: { jwt: revokedJwt },
    bearer,
    summary: 'or sends its JWT',
  });
  await rec.ok('POST', `${DID}/verify-vc`, {
    json: revokedVc,
    summary: 'a revoked credential: verified false (HTTP 200)',
  });
  // The list URL starts with the stack's PUBLIC_URL; the call goes to this stack's gateway.
  const listPath = new URL(revocation.statusListCredential).pathname;
  await rec.ok('GET', listPath, {
    summary:
      'a status list with two revoked credentials, with Accept: application/json (without it: ' +
      'the same credential as a compact JWT, application/vc+jwt)',
  });
  await rec.fails('GET', `${DID}/status-lists/${UNKNOWN_LIST_ID}`, 'noStatusList');
  await rec.fails('POST', `${DID}/revoke-vc`, 'notRevocable', {
    json: { jwt: withForeignSignature(revokedJwt, vc.proof.jwt) },
    bearer,
  });
  await rec.fails('POST', `${DID}/revoke-vc`, 'unauthenticated', { json: { jwt: revokedJwt } });
  const other = await client.send('POST', `${AUTH}/auth-user`, { json: options.otherUser });
  if (other.status !== 200) throw new Error(`login of ${options.otherUser.id}: ${other.status}`);
  await rec.fails('POST', `${DID}/revoke-vc`, 'notYourCredential', {
    json: { jwt: revokedJwt },
    bearer: (other.body as LoginResult).token,
  });
  await rec.bodyErrors(`${DID}/revoke-vc`, { bearer });

  // Sign-In with Ethereum: a wallet's address linked to the demo user, a login with it.
  await recordSiweExamples({
    rec,
    bearer,
    otherBearer: (other.body as LoginResult).token,
    secrets: options.secrets,
  });

  // OpenID4VCI: an offer for the user's own wallet (the wallet's calls are the issuer's, OAuth).
  await rec.ok('POST', `${DID}/credential-offer`, {
    json: { txCode: true, userInfo: { name: 'Demo User', email: 'demo@example.com' } },
    bearer,
    summary: 'an offer with a transaction code: show the URI as a QR code, tell the user the code',
  });
  await rec.fails('POST', `${DID}/credential-offer`, 'unauthenticated', { json: {} });
  await rec.bodyErrors(`${DID}/credential-offer`, { bearer });

  // The account: its ways in, a revoke that names no site, another user's logout everywhere.
  await recordAccountExamples({
    rec,
    client,
    gatewayUrl: client.baseUrl,
    publicUrl: options.publicUrl,
    bearer,
    other: options.otherUser,
  });

  // Passkeys: registered in a browser (Chromium's virtual authenticator), a login, removal.
  await recordPasskeyExamples({ rec, client, publicUrl: options.publicUrl });
  await recordPresentationExamples({ rec, client, basic });

  // Last: failures per id lock that (unknown) id for a while...
  const locked = { id: 'example-locked-user', password: 'not-the-password' };
  for (let i = 0; i < MAX_FAILURES_PER_ID; i++) {
    await client.send('POST', `${AUTH}/auth-user`, { json: locked });
  }
  await rec.fails('POST', `${AUTH}/auth-user`, 'tooManyAttempts', { json: locked });
  // ... and failures per client address close the logins (password and VP: one counter) and the
  // relying-party calls (failed client authentications: another) from this address for a while.
  // The very last recordings.
  const lastVp = await presentation();
  /** Fails `path` (attempt i sends options(i)) until it answers 429. */
  const overLimit = async (path: string, options: (i: number) => SendOptions) => {
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      if ((await client.send('POST', path, options(i))).status === 429) return;
    }
    throw new Error(`${path} never answered 429`);
  };
  await overLimit(`${AUTH}/auth-user-by-app`, () => ({
    basic: wrongClient,
    json: { requestId: SITE },
  }));
  for (const path of ['auth-user-by-app', 'cancel-auth-user-by-app', 'auth-user-result-by-app']) {
    await rec.fails('POST', `${AUTH}/${path}`, 'tooManyAttempts', { basic, json: poll.json });
  }
  // A new unknown id each time, so that no per-id hold answers first.
  await overLimit(`${AUTH}/auth-user`, (i) => ({
    json: { id: `example-user-${i}`, password: 'not-the-password' },
  }));
  await rec.fails('POST', `${AUTH}/auth-user-with-vp`, 'tooManyAttempts', {
    json: { vp: lastVp },
  });
  return rec.recorded();
}
