/**
 * Scenario 13 (sd-jwt-issuance), and what scenario 12 (presentation-verify) shares with it: a
 * third-party EU wallet receiving the user's Profile SD-JWT VC over OpenID4VCI 1.0 (contract §15)
 * through the gateway — the OpenWallet Foundation's `Openid4vciClient` with a DPoP key and a `jwk`
 * proof, jose signing its JWTs (as e2e/src/oid4vci-wallet.ts does) — and the CPU time the stack's
 * processes spend per flow.
 */
import { generateKeyPairSync, randomUUID, sign as signWith, type KeyObject } from 'node:crypto';
import type { Jwk } from '@openid4vc/oauth2';
import type { Openid4vciClient, IssuerMetadataResult } from '@openid4vc/openid4vci';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { newDidJwkKey, oid4vciWallet, type WalletKey } from '@itp/testing/oid4vci-wallet';
import { cpuMsOf, withCpu, withOwnCpu } from './cpu-per-op.js';
import { loopLoad, percentiles, round } from './load.js';
import { environmentOf } from './oidc-flow.js';
import type { ScenarioContext, ScenarioResult } from './scenarios.js';

export const SD_JWT_CONFIGURATION_ID = 'itp_profile_sd_jwt';
/** The profile claims of every credential of scenarios 12 and 13, each a disclosure. */
export const BENCH_PROFILE = {
  name: 'Bench User',
  email: 'bench@example.com',
  nickname: 'bench',
} as const;

/** The stack's PUBLIC_URL (what its issuer, request and status list URLs name), from /proc. */
export function publicUrlOf(ctx: ScenarioContext): string {
  const pid = ctx.stack.pids['did-service'] ?? ctx.stack.pids.gateway;
  const named = pid === undefined ? undefined : environmentOf(pid).PUBLIC_URL;
  return (named ?? ctx.stack.urls.gateway).replace(/\/$/, '');
}

/** `url` with `publicUrl` replaced by `gateway` (the stack's own address on this machine). */
export const toGateway = (publicUrl: string, gateway: string, url: string): string =>
  url.startsWith(publicUrl) ? gateway + url.slice(publicUrl.length) : url;

/** A fetch that sends what is addressed to `publicUrl` to `gateway`, counting the requests. */
export function gatewayFetch(publicUrl: string, gateway: string) {
  const counter = { requests: 0 };
  const rewrite = (url: string) => toGateway(publicUrl, gateway, url);
  const send: typeof fetch = (input, init) => {
    counter.requests += 1;
    if (input instanceof Request) return fetch(new Request(rewrite(input.url), input), init);
    return fetch(rewrite(String(input)), init);
  };
  return { fetch: send, counter };
}

/** The Authorization header of a fresh login of the dev demo user (step-up: docs/api.md §12). */
export async function demoBearer(gateway: string): Promise<string> {
  const response = await fetch(`${gateway}/v2/auth/auth-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'demo', password: 'demo-password' }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 200 || !body.token) {
    throw new Error(`demo login: HTTP ${response.status}`);
  }
  return `Bearer ${body.token}`;
}

/**
 * A bearer of the demo user renewed every 2 minutes: credential offers need a login at most
 * STEP_UP_MAX_AGE_SECONDS (300 s by default) old, and a long BENCH_SECONDS outlasts one.
 */
export function stepUpBearer(gateway: string): () => Promise<string> {
  let current: { at: number; bearer: Promise<string> } | undefined;
  return () => {
    if (!current || Date.now() - current.at > 120_000) {
      current = { at: Date.now(), bearer: demoBearer(gateway) };
    }
    return current.bearer;
  };
}

/** One wallet: its holder key (cnf.jwk), its DPoP key, the library with its counted fetch. */
export interface IssuanceWallet {
  holder: WalletKey;
  dpop: WalletKey;
  client: Openid4vciClient;
  counter: { requests: number };
}

/** `Openid4vciClient` whose JWTs jose signs: DPoP proofs with `dpop`, key proofs with `holder`. */
export function issuanceWallet(
  holder: WalletKey,
  dpop: WalletKey,
  publicUrl: string,
  gateway: string,
): IssuanceWallet {
  const { fetch: send, counter } = gatewayFetch(publicUrl, gateway);
  // The dev stack serves plain HTTP on loopback (a process-wide setting of the library).
  const client = oid4vciWallet(holder, { allowInsecureUrls: true, dpopKey: dpop, fetch: send });
  return { holder, dpop, client, counter };
}

export async function newIssuanceWallet(
  publicUrl: string,
  gateway: string,
  options: { extractableHolder?: boolean } = {},
): Promise<IssuanceWallet> {
  return issuanceWallet(
    await newDidJwkKey({ extractable: options.extractableHolder ?? false }),
    await newDidJwkKey(),
    publicUrl,
    gateway,
  );
}

/** The issuer's metadata as the wallet resolves it (credential issuer and authorization server). */
export async function issuerMetadataOf(
  wallet: IssuanceWallet,
  publicUrl: string,
): Promise<IssuerMetadataResult> {
  return wallet.client.resolveIssuerMetadata(`${publicUrl}/v2/did/oid4vci`);
}

/** The steps of one issuance, in order (their times in IssuanceSteps). */
export const ISSUANCE_STEPS = [
  'credential offer (POST, Bearer) + offer GET',
  'token (pre-authorized code, tx_code, DPoP)',
  'nonce + credential (jwk proof, DPoP)',
] as const;

/**
 * One issuance through the gateway: the user's app asks for a `dc+sd-jwt` offer (with a tx_code),
 * the wallet fetches it, redeems the pre-authorized code with a DPoP proof (the library answers
 * `use_dpop_nonce` by sending it again with the server's nonce), takes a c_nonce and asks for the
 * credential with a `jwk` proof of its holder key and a DPoP proof. Returns the SD-JWT VC after
 * checking that it is bound to the holder key and discloses the profile; `times` gets each step's
 * milliseconds (ISSUANCE_STEPS order).
 */
export async function issueSdJwtVc(
  gateway: string,
  bearer: string,
  wallet: IssuanceWallet,
  issuerMetadata: IssuerMetadataResult,
  times?: number[],
  onStep?: () => void,
): Promise<string> {
  let t0 = performance.now();
  const lap = () => {
    const t = performance.now();
    times?.push(t - t0);
    t0 = t;
    onStep?.();
  };
  const offered = await fetch(`${gateway}/v2/did/credential-offer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: bearer },
    body: JSON.stringify({ format: 'dc+sd-jwt', userInfo: BENCH_PROFILE }),
  });
  wallet.counter.requests += 1;
  const offer = (await offered.json()) as { credentialOfferUri?: string; txCode?: string };
  if (offered.status !== 200 || !offer.credentialOfferUri) {
    throw new Error(`credential-offer: HTTP ${offered.status} ${JSON.stringify(offer)}`);
  }
  const credentialOffer = await wallet.client.resolveCredentialOffer(offer.credentialOfferUri);
  lap();
  const dpopSigner = { method: 'jwk', alg: 'ES256', publicJwk: wallet.dpop.publicJwk } as const;
  const { accessTokenResponse, dpop } =
    await wallet.client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      ...(offer.txCode === undefined ? {} : { txCode: offer.txCode }),
      dpop: { signer: dpopSigner },
    });
  if (accessTokenResponse.token_type !== 'DPoP' || !dpop) {
    throw new Error(`token: a ${accessTokenResponse.token_type} token, not a DPoP-bound one`);
  }
  lap();
  const { c_nonce } = await wallet.client.requestNonce({ issuerMetadata });
  const { jwt: proof } = await wallet.client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: SD_JWT_CONFIGURATION_ID,
    signer: { method: 'jwk', alg: 'ES256', publicJwk: wallet.holder.publicJwk },
    nonce: c_nonce,
  });
  const { credentialResponse } = await wallet.client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: SD_JWT_CONFIGURATION_ID,
    proofs: { jwt: [proof] },
    dpop,
  });
  lap();
  const [first] = (credentialResponse.credentials ?? []) as Array<{ credential?: unknown }>;
  const sdJwt = typeof first?.credential === 'string' ? first.credential : '';
  const parts = sdJwt.split('~');
  const payload = decodeJwt(parts[0] ?? '') as { cnf?: { jwk?: Jwk } };
  if (
    payload.cnf?.jwk?.x !== wallet.holder.publicJwk.x ||
    parts.length !== Object.keys(BENCH_PROFILE).length + 2
  ) {
    throw new Error('the credential is not an SD-JWT VC of the profile bound to the holder key');
  }
  return sdJwt;
}

/** Step times of many flows, by step: mean and percentiles. */
export class FlowSteps {
  private readonly samples: number[][];

  constructor(private readonly names: readonly string[]) {
    this.samples = names.map(() => []);
  }

  add(times: readonly number[]): void {
    times.forEach((ms, step) => this.samples[step]?.push(ms));
  }

  /** `step mean ms (p50 …, p99 …)`, joined by `; `. */
  text(): string {
    return this.names
      .map((name, i) => {
        const values = this.samples[i]!;
        const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
        const { p50, p99 } = percentiles(values);
        return `${name} ${round(mean, 1)} ms (p50 ${p50}, p99 ${p99})`;
      })
      .join('; ');
  }
}

/** The stack's processes an issuance or a presentation flow passes through. */
export const STACK_PROCESSES = ['gateway', 'auth-service', 'did-service'] as const;

/**
 * The stack's CPU ms per step of `flows` issuances made one after another (ISSUANCE_STEPS order):
 * `/proc/<pid>/stat` read between the steps, so each step's share is its own (10 ms ticks,
 * averaged over the flows).
 */
async function stepCpu(
  pids: Record<string, number>,
  flows: number,
  issue: (onStep: () => void) => Promise<unknown>,
): Promise<string> {
  const sums = ISSUANCE_STEPS.map(() => STACK_PROCESSES.map(() => 0));
  const snapshot = () => STACK_PROCESSES.map((name) => cpuMsOf(pids[name] ?? -1) ?? 0);
  for (let flow = 0; flow < flows; flow += 1) {
    let step = 0;
    let last = snapshot();
    await issue(() => {
      const now = snapshot();
      now.forEach((ms, i) => (sums[step]![i]! += ms - last[i]!));
      last = now;
      step += 1;
    });
  }
  return ISSUANCE_STEPS.map(
    (name, step) =>
      `${name}: ` +
      STACK_PROCESSES.map((proc, i) => `${proc} ${round(sums[step]![i]! / flows, 1)}`).join(', '),
  ).join('; ');
}

/**
 * The reference signer: `@sd-jwt/sd-jwt-vc` (what did-service issues with) over an ES256
 * node:crypto key, the credential's header and claims as the service signs them.
 */
function referenceIssuer(): { instance: SDJwtVcInstance } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key: KeyObject = privateKey;
  const instance = new SDJwtVcInstance({
    signer: (input) =>
      signWith('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString(
        'base64url',
      ),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  return { instance };
}

/**
 * 13. OpenID4VCI issuance of an SD-JWT VC into a third-party EU wallet through the gateway
 * (`Openid4vciClient`): credential offer (the user's app, Bearer) → offer → token (pre-authorized
 * code, tx_code, DPoP) → nonce → credential (a `jwk` proof, DPoP), each flow a new credential of
 * three disclosable claims; vs the SD-JWT VC signing alone in process (`@sd-jwt/sd-jwt-vc`, ES256
 * with node:crypto, the same header and claims), at the same concurrency.
 */
export async function sdJwtIssuanceScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { urls, pids } = ctx.stack;
  const { seconds, cryptoConnections, warmupSeconds } = ctx.budget;
  const gateway = urls.gateway;
  const publicUrl = publicUrlOf(ctx);
  const bearer = stepUpBearer(gateway);
  // One wallet per lane (holder and DPoP keys, made outside the figures); the issuer's metadata
  // resolved once (a wallet caches it): each flow is one issuance.
  const wallets = await Promise.all(
    Array.from({ length: cryptoConnections }, () => newIssuanceWallet(publicUrl, gateway)),
  );
  const issuerMetadata = await issuerMetadataOf(wallets[0]!, publicUrl);
  let firstError: string | undefined;
  let sample = '';
  const flow = (steps: FlowSteps) => async (lane: number) => {
    try {
      const times: number[] = [];
      sample = await issueSdJwtVc(gateway, await bearer(), wallets[lane]!, issuerMetadata, times);
      steps.add(times);
    } catch (err) {
      firstError ??= err instanceof Error ? err.message : String(err);
      throw err;
    }
  };
  // One flow first, outside the figures: a broken flow fails the scenario at once.
  await flow(new FlowSteps(ISSUANCE_STEPS))(0);
  if (warmupSeconds > 0) {
    await loopLoad(
      'warm-up',
      warmupSeconds,
      cryptoConnections,
      flow(new FlowSteps(ISSUANCE_STEPS)),
    );
  }
  const steps = new FlowSteps(ISSUANCE_STEPS);
  const requestsBefore = wallets.reduce((n, w) => n + w.counter.requests, 0);
  const measured = await withCpu(pids, STACK_PROCESSES, () =>
    loopLoad(
      `SD-JWT VC issuance flows through the gateway (offer → DPoP token → credential), ${cryptoConnections} at a time`,
      seconds,
      cryptoConnections,
      flow(steps),
    ),
  );
  const through = measured.figure;
  const requests = wallets.reduce((n, w) => n + w.counter.requests, 0) - requestsBefore;
  // The reference signs what the service signed: the same header (typ, x5c) and claims.
  const header = decodeProtectedHeader(sample.split('~')[0]!);
  const issued = decodeJwt(sample.split('~')[0]!) as SdJwtVcPayload;
  const { instance } = referenceIssuer();
  const payloadOf = (): SdJwtVcPayload => ({
    ...BENCH_PROFILE,
    iss: issued.iss,
    vct: issued.vct,
    sub: issued.sub,
    jti: `urn:uuid:${randomUUID()}`,
    iat: Math.floor(Date.now() / 1000),
    ...(issued.exp === undefined ? {} : { exp: issued.exp }),
    cnf: issued.cnf,
    ...(issued.status === undefined ? {} : { status: issued.status }),
  });
  const frame = { _sd: Object.keys(BENCH_PROFILE) } as Parameters<typeof instance.issue>[1];
  const signing = await withOwnCpu(() =>
    loopLoad(
      `@sd-jwt/sd-jwt-vc issue in process, ES256 (node:crypto), same header and claims (reference)`,
      seconds,
      cryptoConnections,
      () => instance.issue(payloadOf(), frame, { header: { typ: header.typ, x5c: header.x5c } }),
    ),
  );
  const flows = Math.max(1, through.total + through.errors);
  // Where the stack's CPU goes, step by step: flows one at a time (no overlap between steps).
  const sequential = Math.max(3, Math.min(20, Math.round(seconds * 2)));
  const perStep = await stepCpu(pids, sequential, async (onStep) =>
    issueSdJwtVc(gateway, await bearer(), wallets[0]!, issuerMetadata, undefined, onStep),
  );
  return {
    id: 13,
    name: 'sd-jwt-issuance',
    figures: [through, signing.figure],
    checks: [
      {
        target:
          '0 failed flows (each ends with an SD-JWT VC of the three claims bound to the wallet’s key)',
        value: String(through.errors),
        met: through.errors === 0,
      },
    ],
    notes: [
      `a flow is ${round(requests / flows, 1)} HTTP requests through the gateway: the offer ` +
        '(POST credential-offer with the user’s Bearer, GET of the offer), the token request ' +
        '(pre-authorized code and tx_code; answered use_dpop_nonce once, then sent again with ' +
        'the server’s DPoP nonce), the nonce and the credential request; the issuer’s metadata ' +
        'is resolved once per run (a wallet caches it), the wallets’ keys are made before',
      `ES256 work of a flow: the wallet signs 3 DPoP proofs and 1 key proof (jose, in the load ` +
        'generator on the same cores); the issuer verifies them, signs the credential and ' +
        'takes a token status list entry for it',
      `issuance flows use ${round((100 * through.rate) / Math.max(1, signing.figure.rate))} % ` +
        `of the in-process signing rate (${through.rate} flows/s against ${signing.figure.rate} ` +
        'credentials/s signed alone)',
      `CPU ms per flow: ${measured.text}; the signing alone: ${signing.ms} ms per credential ` +
        '(this process)',
      `steps, mean: ${steps.text()}`,
      `CPU ms per step of ${sequential} flows made one at a time: ${perStep}`,
      ...(firstError ? [`first failure: ${firstError}`] : []),
    ],
  };
}
