/**
 * Scenario 11 (passkey-login) and the software authenticator it logs in with: WebAuthn in plain
 * node:crypto (P-256 / ES256), no browser — what Chromium's virtual authenticator
 * (@itp/testing/virtual-authenticator) answers, made by hand: clientDataJSON, authenticatorData
 * and, for a login, the ECDSA signature over authenticatorData ‖ SHA-256(clientDataJSON).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { cpus } from 'node:os';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { withCpu, withOwnCpu } from './cpu-per-op.js';
import { loopLoad, round } from './load.js';
import { discover } from './oidc-flow.js';
import type { ScenarioContext, ScenarioResult } from './scenarios.js';

/** authenticatorData flags (WebAuthn §6.1). */
const UP = 0x01;
const UV = 0x04;
/** Backup eligible and backed up: a synced passkey (the kind whose counter stays 0). */
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

type CborValue = Parameters<typeof isoCBOR.encode>[0];

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/**
 * One discoverable credential on a software authenticator: a P-256 key made with node:crypto,
 * kept as a synced passkey keeps it (BE and BS set, signature counter always 0, as the synced
 * passkeys of the big platforms report it) — so one passkey can log in from many loops at once
 * (a counter that must move forward would refuse all but one of concurrent logins).
 */
export class SoftPasskey {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private userHandle = '';

  constructor(readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: String(jwk.x), y: String(jwk.y) };
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }),
      'utf8',
    );
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4); // 0: a synced passkey's counter
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      counter,
      attested ?? Buffer.alloc(0),
    ]);
  }

  /** The registration response (attestation `none`) to creation options, as `credential.toJSON()`. */
  register(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    // The first registration's user handle stays (the in-process reference registers it again).
    this.userHandle ||= options.user.id;
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const cose = isoCBOR.encode(
      new Map<number, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(this.publicJwk.x, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(this.publicJwk.y, 'base64url'))],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cose]);
    const authData = this.authenticatorData(rpId, UP | UV | BE | BS | AT, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CborValue>()],
        ['authData', new Uint8Array(authData).slice()],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64u(attestationObject),
        transports: ['internal', 'hybrid'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A login assertion to request options (user verified), as `credential.toJSON()`. */
  assert(options: PublicKeyCredentialRequestOptionsJSON): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authenticatorData(rpId, UP | UV | BE | BS);
    // ES256: ECDSA P-256 over SHA-256, DER-encoded (node:crypto's default for EC keys).
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

async function post<T>(url: string, body: unknown, bearer?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

const DEMO = { id: 'demo', password: 'demo-password' };

/** A fresh password login of the demo user: adding or removing a passkey is a step-up operation. */
async function freshToken(gateway: string): Promise<string> {
  return (await post<{ token: string }>(`${gateway}/v2/auth/auth-user`, DEMO)).token;
}

/**
 * Registers a software passkey for the demo user through the gateway (a fresh password login,
 * registration options, the attestation): outside any figure. Returns the passkey and a removal
 * (another fresh login: the run may outlast STEP_UP_MAX_AGE_SECONDS) that leaves the user as it
 * was — one user holds at most 20 passkeys, and the smoke runs against a shared stack.
 */
export async function registerSoftPasskey(
  gateway: string,
  origin: string,
): Promise<{ passkey: SoftPasskey; remove: () => Promise<void> }> {
  const passkey = new SoftPasskey(origin);
  const token = await freshToken(gateway);
  const options = await post<PublicKeyCredentialCreationOptionsJSON>(
    `${gateway}/v2/auth/passkeys/registration-options`,
    {},
    token,
  );
  const added = await post<{ id: string }>(
    `${gateway}/v2/auth/passkeys`,
    { response: passkey.register(options), name: 'bench software passkey' },
    token,
  );
  return {
    passkey,
    remove: async () => {
      await post(`${gateway}/v2/auth/passkeys/remove`, { id: added.id }, await freshToken(gateway));
    },
  };
}

/** One passkey login through the gateway: options → assertion → auth-user-with-passkey. */
export async function passkeyLogin(gateway: string, passkey: SoftPasskey): Promise<void> {
  const options = await post<PublicKeyCredentialRequestOptionsJSON>(
    `${gateway}/v2/auth/passkeys/authentication-options`,
    {},
  );
  const result = await post<{ userId: string; token: string }>(
    `${gateway}/v2/auth/auth-user-with-passkey`,
    { response: passkey.assert(options) },
  );
  if (result.userId !== DEMO.id || !result.token) {
    throw new Error(`passkey login: logged in as ${result.userId}`);
  }
}

/**
 * 11. Passkey (WebAuthn) login through the gateway, a software authenticator in the load generator
 * (P-256 / ES256 in node:crypto, one synced passkey of the demo user registered before the
 * figures): authentication options → assertion → auth-user-with-passkey, at the crypto
 * concurrency, vs @simplewebauthn/server's `verifyAuthenticationResponse` (what auth-service
 * verifies with) of the same kind of assertion in process; per core is the rate ÷ the machine's
 * cores.
 */
export async function passkeyLoginScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const gateway = ctx.stack.urls.gateway;
  const { seconds, cryptoConnections, warmupSeconds } = ctx.budget;
  // The relying party is PUBLIC_URL's origin and host (the OpenID Connect issuer's origin).
  const origin = (await discover(gateway)).publicOrigin;
  const { passkey, remove } = await registerSoftPasskey(gateway, origin);
  let firstError: string | undefined;
  const login = async () => {
    try {
      await passkeyLogin(gateway, passkey);
    } catch (err) {
      firstError ??= err instanceof Error ? err.message : String(err);
      throw err;
    }
  };
  try {
    await login(); // must work before anything is measured
    if (warmupSeconds > 0) await loopLoad('warm-up', warmupSeconds, cryptoConnections, login);
    // CPU ms per login of the gateway, auth-service and the load generator
    // (/proc/<pid>/stat, process.cpuUsage): steadier than the rate on a loaded machine.
    const measured = await withCpu(ctx.stack.pids, ['gateway', 'auth-service'], () =>
      loopLoad(
        `gateway → auth-service passkey login (options → assertion → auth-user-with-passkey), ${cryptoConnections} at a time`,
        seconds,
        cryptoConnections,
        login,
      ),
    );
    const through = measured.figure;
    // The reference: the same library and checks as auth-service (user verification required,
    // origin, RP id, challenge, ES256 signature), on an assertion of the same software passkey,
    // the credential's key in memory; no challenge store, no SQL, no HTTP.
    const rpId = new URL(origin).hostname;
    const challenge = b64u(randomBytes(32));
    const sample = passkey.assert({ challenge, rpId });
    const reference = await SoftPasskeyReference.of(passkey, origin, rpId);
    const verified = await withOwnCpu(() =>
      loopLoad(
        '@simplewebauthn/server verifyAuthenticationResponse of the same kind of assertion in process (reference)',
        seconds,
        cryptoConnections,
        () => reference.verify(sample, challenge),
      ),
    );
    const verify = verified.figure;
    const signed = await withOwnCpu(() =>
      loopLoad(
        'the software authenticator’s assertion, ES256 in node:crypto (reference: the client side of each login)',
        seconds,
        cryptoConnections,
        async () => passkey.assert({ challenge, rpId }),
      ),
    );
    const signing = signed.figure;
    const serverMs = measured.stackMs;
    const cores = cpus().length;
    return {
      id: 11,
      name: 'passkey-login',
      figures: [through, verify, signing],
      checks: [
        {
          target: '0 failed logins (each answers a login result of the demo user)',
          value: String(through.errors),
          met: through.errors === 0,
        },
        {
          target: 'logins per core (no target in issue 37: the figure for the sizing table)',
          value:
            `${round(through.rate / cores, 1)}/s per core (${cores} cores); the server side ` +
            `(gateway + auth-service) ${serverMs > 0 ? round(1000 / serverMs) : 0}/s per CPU-second`,
          met: true,
        },
      ],
      notes: [
        `${cryptoConnections} logins at a time; each is two requests through the gateway and one ` +
          'ES256 signature made by the load generator on the same cores',
        `the login reaches ${verify.rate > 0 ? Math.round((through.rate / verify.rate) * 100) : 0} % ` +
          `of in-process verification; verification alone ${verify.meanMs} ms per assertion, ` +
          `signing ${signing.meanMs} ms, a whole login ${through.meanMs} ms`,
        `CPU ms per login: ${measured.text}; the stack's ${round(serverMs, 1)} ms against ` +
          `${verified.ms} ms of CPU per verification alone in process ` +
          `(${serverMs > 0 ? Math.round((verified.ms / serverMs) * 100) : 0} % of the server side), ` +
          `${signed.ms} ms per signature; so about ${serverMs > 0 ? round(1000 / serverMs) : 0} ` +
          'logins per second of a core for the server side alone',
        'one synced passkey (BE/BS set, counter 0) registered for the demo user before the ' +
          'figures (fresh password login: step-up) and removed after them',
        ...(firstError ? [`first failure: ${firstError}`] : []),
      ],
    };
  } finally {
    await remove();
  }
}

/** auth-service's verification of an assertion (Passkeys.verifyAssertion's library call), alone. */
export class SoftPasskeyReference {
  private constructor(
    private readonly credential: WebAuthnCredential,
    private readonly origin: string,
    private readonly rpId: string,
  ) {}

  /** Registers `passkey` in memory (verifyRegistrationResponse), as auth-service stores it. */
  static async of(passkey: SoftPasskey, origin: string, rpId: string) {
    const challenge = b64u(randomBytes(32));
    const registration = await verifyRegistrationResponse({
      response: passkey.register({
        challenge,
        rp: { id: rpId, name: 'bench' },
        user: { id: b64u(randomBytes(32)), name: 'bench', displayName: 'bench' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }),
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: true,
    });
    if (!registration.verified) throw new Error('the software passkey did not register');
    const { credential } = registration.registrationInfo;
    return new SoftPasskeyReference(
      { id: credential.id, publicKey: credential.publicKey, counter: credential.counter },
      origin,
      rpId,
    );
  }

  async verify(response: AuthenticationResponseJSON, challenge: string): Promise<void> {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      credential: this.credential,
      requireUserVerification: true,
    });
    if (!result.verified) throw new Error('the assertion did not verify');
  }
}
