/**
 * Scenario 12 (presentation-verify): a site verifies what an EU wallet presents (contract §14)
 * through the gateway, and the same kind of presentation verified in process with the
 * maintained library. The wallet is @itp/presentations/testing's testWallet (the OpenWallet
 * Foundation's `Openid4vpClient`: the request object's x5c checked against the served verifier
 * CA, the answer encrypted direct_post.jwt); its credential the demo user's Profile SD-JWT VC,
 * issued by the stack over OpenID4VCI (scenario 13's flow, once, outside the figures): an issuer
 * auth-service always trusts, with a token status list entry it checks on every presentation.
 */
// @peculiar/x509 (through @itp/x509) needs it first.
import 'reflect-metadata';
import { presentTestSdJwtVc, testWallet } from '@itp/presentations/testing';
import { trustAnchorsFrom, verifyCertificateChain, type TrustAnchors } from '@itp/x509';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader, exportJWK } from 'jose';
import type { webcrypto } from 'node:crypto';
import { loopLoad, round, type Figure } from './load.js';
import { addOidcClient, environmentOf, type OidcClient } from './oidc-flow.js';
import {
  BENCH_PROFILE,
  FlowSteps,
  issueSdJwtVc,
  issuerMetadataOf,
  newIssuanceWallet,
  publicUrlOf,
  stepUpBearer,
  toGateway,
  STACK_PROCESSES,
} from './scenario-sd-jwt-issuance.js';
import { withCpu, withOwnCpu } from './cpu-per-op.js';
import type { ScenarioContext, ScenarioResult } from './scenarios.js';

/** The site's redirect URI (the CLI registers one; presentation requests never use it). */
const SITE_REDIRECT_URI = 'https://bench.example/presentations/callback';
/** The one claim each presentation discloses (of the credential's three). */
const DISCLOSED = 'name';
/** How old a key binding JWT may be (auth-service: 300 s): the reference's presentation is renewed before. */
const KB_MAX_AGE_SECONDS = 300;

export const PRESENTATION_STEPS = [
  'site: create request',
  'wallet: resolve (GET request object, x5c)',
  'wallet: present (KB-JWT) + answer (JWE, POST)',
  'site: result',
] as const;

const basic = (client: OidcClient) =>
  `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;

async function postJson<T>(url: string, body: unknown, authorization: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

async function getText(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

interface Outcome {
  status?: string;
  credentials?: Record<string, Array<{ format?: string; claims?: Record<string, unknown> }>>;
}

/** `x5c` (base64 DER) → PEM. */
const pemOf = (der: string) =>
  `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

/**
 * The in-process verifier of the reference: what a relying party with the maintained libraries
 * does with a presentation of this credential — the issuer's x5c chain to its CA (@itp/x509),
 * then `@sd-jwt/sd-jwt-vc`'s `SDJwtVcInstance.verify` (the issuer's signature, every
 * disclosure's digest, the key binding JWT by `cnf.jwk` with the nonce and `sd_hash`, the token
 * status list's signature and bit), then the KB-JWT's `aud` and `iat`. `statusList` gives the
 * status list token (fetched, or held in memory); its x5c chain is checked as well.
 */
function referenceVerifier(anchors: TrustAnchors, statusList: (uri: string) => Promise<string>) {
  return async (presentation: string, nonce: string, audience: string): Promise<void> => {
    const issuerJwt = presentation.split('~')[0]!;
    const x5c = decodeProtectedHeader(issuerJwt).x5c ?? [];
    const chain = await verifyCertificateChain(x5c, anchors);
    const verifier = await ES256.getVerifier(chain.publicKeyJwk);
    const instance = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      verifier,
      kbVerifier: async (data, signature, payload) => {
        const jwk = (payload.cnf as { jwk?: object } | undefined)?.jwk;
        if (!jwk) return false;
        return (await ES256.getVerifier(jwk))(data, signature);
      },
      statusListFetcher: async (uri) => {
        const token = await statusList(uri);
        await verifyCertificateChain(decodeProtectedHeader(token).x5c ?? [], anchors);
        return token;
      },
    });
    const { payload, kb } = await instance.verify(presentation, { keyBindingNonce: nonce });
    const now = Math.floor(Date.now() / 1000);
    if (kb?.payload.aud !== audience || now - kb.payload.iat > KB_MAX_AGE_SECONDS) {
      throw new Error('the key binding JWT is not for this verifier, or stale');
    }
    if (payload[DISCLOSED] !== BENCH_PROFILE[DISCLOSED]) {
      throw new Error(`the presentation does not disclose ${DISCLOSED}`);
    }
  };
}

/** CPU ms of `op`, one at a time, averaged over `times` runs (this process). */
async function cpuMsEach(times: number, op: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i += 1) await op();
  const used = process.cpuUsage(start);
  return round((used.user + used.system) / 1000 / times, 2);
}

/**
 * Where a verification's CPU goes, measured one at a time in this process: an x5c chain check
 * (@itp/x509, as auth-service makes for the credential and for its status list token), the status
 * list token's decoding (`getListFromStatusListJWT`: the whole list inflated), one ES256
 * signature check.
 */
async function verificationParts(
  credential: string,
  statusToken: string,
  anchors: TrustAnchors,
  times: number,
): Promise<string> {
  const issuerJwt = credential.split('~')[0]!;
  const x5c = decodeProtectedHeader(issuerJwt).x5c ?? [];
  const chain = await verifyCertificateChain(x5c, anchors);
  const verify = await ES256.getVerifier(chain.publicKeyJwk);
  const [header, payload, signature] = issuerJwt.split('.');
  const chainMs = await cpuMsEach(times, () => verifyCertificateChain(x5c, anchors));
  const es256Ms = await cpuMsEach(times, () => verify(`${header}.${payload}`, signature!));
  const parts = [`an x5c chain check ${chainMs} ms`, `an ES256 signature check ${es256Ms} ms`];
  if (statusToken) {
    const { idx } = (decodeJwt(issuerJwt) as { status: { status_list: { idx: number } } }).status
      .status_list;
    const listMs = await cpuMsEach(times, async () =>
      getListFromStatusListJWT(statusToken).getStatus(idx),
    );
    parts.push(`the status list token's decoding ${listMs} ms`);
  }
  return parts.join(', ');
}

/**
 * 12. A site's presentation request answered by an EU wallet, through the gateway (contract §14):
 * the site creates the request (HTTP Basic, a relying party registered with auth-service's CLI),
 * the wallet (`Openid4vpClient`) fetches and checks the request object, answers encrypted with an
 * SD-JWT VC presentation disclosing one claim of the stack's own Profile SD-JWT VC (token status
 * list checked), the site collects the result; vs the same kind of presentation verified in
 * process with `@sd-jwt/sd-jwt-vc` (x5c chain, signatures, disclosures, key binding, the status
 * list fetched over HTTP, and held in memory), at the same concurrency.
 */
export async function presentationVerifyScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { urls, pids } = ctx.stack;
  const { seconds, cryptoConnections, warmupSeconds } = ctx.budget;
  const gateway = urls.gateway;
  const publicUrl = publicUrlOf(ctx);
  const authPid = pids['auth-service'];
  if (authPid === undefined) throw new Error('no auth-service process found in /proc');
  // Set up once, outside the figures: the site's credentials, the wallet's credential.
  const site = await addOidcClient(environmentOf(authPid), SITE_REDIRECT_URI);
  const issuance = await newIssuanceWallet(publicUrl, gateway, { extractableHolder: true });
  const credential = await issueSdJwtVc(
    gateway,
    await stepUpBearer(gateway)(),
    issuance,
    await issuerMetadataOf(issuance, publicUrl),
  );
  const holderPrivateJwk = (await exportJWK(issuance.holder.privateKey)) as webcrypto.JsonWebKey;
  const vct = String(decodeJwt(credential.split('~')[0]!).vct);
  const verifierCa = await getText(`${gateway}/v2/auth/oid4vp/verifier-ca.pem`);
  if (verifierCa.status !== 200) {
    throw new Error(
      `GET verifier-ca.pem: HTTP ${verifierCa.status} (a development stack serves it)`,
    );
  }
  const wallet = testWallet({
    verifierCaPem: verifierCa.text,
    publicUrl,
    serviceUrl: gateway,
  });
  const query = {
    credentials: [
      {
        id: 'profile',
        format: 'dc+sd-jwt',
        meta: { vct_values: [vct] },
        claims: [{ path: [DISCLOSED] }],
      },
    ],
  };
  const authorization = basic(site);
  let firstError: string | undefined;
  let clientId = '';
  const flow = (steps: FlowSteps) => async () => {
    try {
      const times: number[] = [];
      let t0 = performance.now();
      const lap = () => {
        const t = performance.now();
        times.push(t - t0);
        t0 = t;
      };
      const created = await postJson<{ requestId: string; openid4vpUri: string }>(
        `${gateway}/v2/auth/presentation-requests`,
        { dcql_query: query },
        authorization,
      );
      lap();
      const resolved = await wallet.resolve(created.openid4vpUri);
      const request = resolved.authorizationRequestPayload;
      clientId = String(request.client_id);
      lap();
      const presentation = await presentTestSdJwtVc(credential, {
        holderPrivateJwk,
        disclose: [DISCLOSED],
        nonce: request.nonce,
        audience: clientId,
      });
      const answer = await wallet.answer(resolved, { profile: [presentation] });
      if (answer.status !== 200) {
        throw new Error(
          `the wallet's answer: HTTP ${answer.status} ${JSON.stringify(answer.body)}`,
        );
      }
      lap();
      const outcome = await postJson<Outcome>(
        `${gateway}/v2/auth/presentation-requests/result`,
        { requestId: created.requestId },
        authorization,
      );
      lap();
      const claims = outcome.credentials?.profile?.[0]?.claims;
      if (
        outcome.status !== 'verified' ||
        JSON.stringify(claims) !== JSON.stringify({ [DISCLOSED]: BENCH_PROFILE[DISCLOSED] })
      ) {
        throw new Error(`outcome ${JSON.stringify(outcome).slice(0, 300)}`);
      }
      steps.add(times);
    } catch (err) {
      firstError ??= err instanceof Error ? err.message : String(err);
      throw err;
    }
  };
  // One flow first, outside the figures: a broken flow fails the scenario at once.
  await flow(new FlowSteps(PRESENTATION_STEPS))();
  if (warmupSeconds > 0) {
    await loopLoad(
      'warm-up',
      warmupSeconds,
      cryptoConnections,
      flow(new FlowSteps(PRESENTATION_STEPS)),
    );
  }
  const steps = new FlowSteps(PRESENTATION_STEPS);
  const measured = await withCpu(pids, STACK_PROCESSES, () =>
    loopLoad(
      `site request → wallet answer (SD-JWT VC, 1 claim) → result, through the gateway, ${cryptoConnections} at a time`,
      seconds,
      cryptoConnections,
      flow(steps),
    ),
  );
  const through = measured.figure;

  // The references: the same credential presented (one claim, a key binding JWT for this
  // verifier), verified in process; the presentation is renewed before its KB-JWT gets stale.
  const issuerX5c = (decodeProtectedHeader(credential.split('~')[0]!).x5c ?? []) as string[];
  const issuerCa = await getText(`${gateway}/v2/did/oid4vci/issuer-ca.pem`);
  const anchors = trustAnchorsFrom([
    issuerCa.status === 200 ? issuerCa.text : pemOf(issuerX5c[issuerX5c.length - 1] ?? ''),
  ]);
  const nonce = 'bench-reference-nonce';
  let made: { at: number; presentation: Promise<string> } | undefined;
  const presentation = () => {
    if (!made || Date.now() - made.at > 120_000) {
      made = {
        at: Date.now(),
        presentation: presentTestSdJwtVc(credential, {
          holderPrivateJwk,
          disclose: [DISCLOSED],
          nonce,
          audience: clientId,
        }),
      };
    }
    return made.presentation;
  };
  const statusUri = (
    decodeJwt(credential.split('~')[0]!) as { status?: { status_list?: { uri?: string } } }
  ).status?.status_list?.uri;
  const fetchStatus = async (uri: string) => {
    const response = await fetch(toGateway(publicUrl, gateway, uri), {
      headers: { accept: 'application/statuslist+jwt' },
    });
    if (!response.ok) throw new Error(`status list ${uri}: HTTP ${response.status}`);
    return (await response.text()).trim();
  };
  const heldToken = statusUri ? await fetchStatus(statusUri) : '';
  const run = (label: string, statusList: (uri: string) => Promise<string>) => {
    const verify = referenceVerifier(anchors, statusList);
    return withOwnCpu(() =>
      loopLoad(label, seconds, cryptoConnections, async () =>
        verify(await presentation(), nonce, clientId),
      ),
    );
  };
  const fetched = await run(
    '@sd-jwt/sd-jwt-vc verify in process, status list fetched over HTTP each time (reference)',
    fetchStatus,
  );
  const held = await run(
    '@sd-jwt/sd-jwt-vc verify in process, status list token in memory (reference)',
    async () => heldToken,
  );
  const parts = await verificationParts(
    credential,
    heldToken,
    anchors,
    Math.max(3, Math.min(20, Math.round(seconds * 2))),
  );
  const ratio = (a: Figure, b: Figure) => round((100 * a.rate) / Math.max(1e-9, b.rate));
  return {
    id: 12,
    name: 'presentation-verify',
    figures: [through, fetched.figure, held.figure],
    checks: [
      {
        target: '0 failed flows (each result verified, holding exactly the one disclosed claim)',
        value: String(through.errors),
        met: through.errors === 0,
      },
    ],
    notes: [
      `a flow is 4 requests through the gateway — the site's create and result (HTTP Basic, ` +
        `relying party ${site.id} added with auth-service's CLI; its secret argon2-checked once, ` +
        'then remembered for CLIENT_AUTH_CACHE_SECONDS), the wallet’s GET of the request object ' +
        'and POST of its encrypted answer — and, inside the answer, auth-service’s GET of the ' +
        'credential’s token status list (at PUBLIC_URL: through the gateway to did-service)',
      'the service’s cryptography per flow: the request object signed (ES256, x5c) and an ' +
        'ephemeral ECDH-ES key made; the JWE decrypted; the issuer’s x5c chain and signature, ' +
        'the disclosures, the KB-JWT signature, the status list token’s chain and signature ' +
        'checked; the wallet (in the load generator, on the same cores) checks the request ' +
        'object’s chain and signature, signs the KB-JWT and encrypts its answer',
      `flows reach ${ratio(through, fetched.figure)} % of the in-process verifications with the ` +
        `status list fetched each time and ${ratio(through, held.figure)} % of those with it in ` +
        'memory (the service fetches it for every presentation)',
      `CPU ms per flow: ${measured.text}; in process per verification: ${fetched.ms} ms ` +
        `(status list fetched; the stack’s share of serving it not counted) and ${held.ms} ms ` +
        '(held)',
      `CPU of a verification's parts in process, one at a time, uncached: ${parts} (ADR 0039: ` +
        'auth-service checks a chain once while it stays valid and its trust anchors unchanged, ' +
        'skips the status list token’s chain when it is the credential’s, and decodes a status ' +
        'list token once; it still fetches the list and checks three ES256 signatures per ' +
        'presentation)',
      `steps, mean: ${steps.text()}`,
      'the credential: the demo user’s Profile SD-JWT VC issued by the stack (scenario 13’s ' +
        'flow, once before the figures), three claims, each a disclosure; no mdoc variant ' +
        '(the stack issues no mdoc, and a test mdoc issuer would need its CA trusted at start)',
      ...(firstError ? [`first failure: ${firstError}`] : []),
    ],
  };
}
