import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The stand-in's verifier DID and client id. */
export const STAND_IN_VERIFIER_DID = 'did:ethr:0x1111111111111111111111111111111111111111';
export const STAND_IN_CLIENT_ID = `decentralized_identifier:${STAND_IN_VERIFIER_DID}`;
/** The holder DID of every presentation the stand-in accepts. */
export const STAND_IN_HOLDER_DID = 'did:ethr:0x2222222222222222222222222222222222222222';
/** The one VP its presentation-requests/verify-vp accepts (with any nonce and client id). */
export const STAND_IN_PROFILE_VP = 'stand-in.profile.vp';

/** What the stand-in's request objects carry (a wallet reads them from the JWT payload). */
export interface StandInRequestObjectClaims {
  client_id: string;
  response_type: 'vp_token';
  response_mode: 'direct_post';
  response_uri: string;
  state: string;
  nonce: string;
  exp: number;
}

export interface DidServiceStandIn {
  /** Base URL of its internal listener (DID_SERVICE_INTERNAL_URL). */
  url: string;
  /** While true, every internal call answers 503 (did-service cannot check: chain down). */
  setDown(down: boolean): void;
  /** While true, every internal call answers 200 with a body of the wrong shape (a bug). */
  setBroken(broken: boolean): void;
  /** The bodies of the calls answered, by path. */
  calls(path: string): unknown[];
  /** A `vp_token` the stand-in accepts for `userId` when `nonce` is the session's. */
  vpTokenFor(userId: string, nonce: string): string;
  /** A VP that its verify-login-vp accepts for `userId` (auth-user-with-vp), a fresh id each. */
  loginVpFor(userId: string): Record<string, unknown>;
  close(): Promise<void>;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The claims of a request object the stand-in made (decoded, signature not checked). */
export function requestObjectClaims(jwt: string): StandInRequestObjectClaims {
  const payload = jwt.split('.')[1] ?? '';
  return JSON.parse(
    Buffer.from(payload, 'base64url').toString('utf8'),
  ) as StandInRequestObjectClaims;
}

/**
 * A stand-in for did-service's internal API as auth-service calls it (bearer
 * INTERNAL_TOKEN_AUTH_TO_DID): `oid4vp/request-object` (an unsigned-looking compact JWT whose
 * payload holds the request's parameters), `oid4vp/verify-response` (a `vp_token` made by
 * vpTokenFor is verified when its nonce and the client id are the session's; anything else is
 * refused with 200 `verified: false`), `presentation-requests/verify-vp` (STAND_IN_PROFILE_VP
 * verified, anything else refused), `verify-login-vp` (a VP made by loginVpFor) and
 * `users/revoke-credentials` (nothing to revoke: 0).
 */
export async function startDidServiceStandIn(internalApiToken: string): Promise<DidServiceStandIn> {
  let down = false;
  let broken = false;
  const calls = new Map<string, unknown[]>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, text: string, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${internalApiToken}`) {
      send(res, 401, { error: { code: '401', message: 'Internal API token missing or wrong' } });
      return;
    }
    if (down) {
      send(res, 503, { error: { code: '503', message: 'The chain is unavailable' } });
      return;
    }
    if (broken) {
      send(res, 200, { unexpected: true });
      return;
    }
    const path = req.url ?? '';
    const body = JSON.parse(text) as Record<string, unknown>;
    calls.set(path, [...(calls.get(path) ?? []), body]);
    if (path === '/internal/v1/oid4vp/request-object') {
      const claims: StandInRequestObjectClaims = {
        client_id: STAND_IN_CLIENT_ID,
        response_type: 'vp_token',
        response_mode: 'direct_post',
        response_uri: String(body.responseUri),
        state: String(body.state),
        nonce: String(body.nonce),
        exp: Math.floor(Date.now() / 1000) + Number(body.expiresInSeconds ?? 300),
      };
      const header = { alg: 'ES256K', typ: 'oauth-authz-req+jwt' };
      const requestObject = `${b64url(header)}.${b64url(claims)}.${randomBytes(64).toString('base64url')}`;
      send(res, 200, { clientId: STAND_IN_CLIENT_ID, requestObject });
      return;
    }
    if (path === '/internal/v1/oid4vp/verify-response') {
      let presented: { userId?: unknown; nonce?: unknown } = {};
      try {
        const token = JSON.parse(String(body.vpToken)) as { login?: [string] };
        presented = JSON.parse(Buffer.from(token.login?.[0] ?? '', 'base64url').toString('utf8'));
      } catch {
        // not a vp_token of vpTokenFor: refused below
      }
      if (
        typeof presented.userId === 'string' &&
        presented.nonce === body.nonce &&
        body.clientId === STAND_IN_CLIENT_ID
      ) {
        send(res, 200, { verified: true, userId: presented.userId, holder: STAND_IN_HOLDER_DID });
      } else {
        send(res, 200, {
          verified: false,
          error: { code: 'invalid_vp', message: 'The presentation does not verify' },
        });
      }
      return;
    }
    if (path === '/internal/v1/presentation-requests/verify-vp') {
      if (body.vp === STAND_IN_PROFILE_VP && body.nonce && body.clientId) {
        send(res, 200, {
          verified: true,
          holder: STAND_IN_HOLDER_DID,
          credentials: [
            {
              issuer: STAND_IN_VERIFIER_DID,
              type: ['VerifiableCredential', 'Profile'],
              credentialSubject: { id: STAND_IN_HOLDER_DID, name: 'Alice' },
            },
          ],
        });
      } else {
        send(res, 200, {
          verified: false,
          error: { code: 'wrong_nonce', message: 'The presentation does not carry the nonce' },
        });
      }
      return;
    }
    if (path === '/internal/v1/verify-login-vp') {
      const vp = body.vp as { userId?: unknown; id?: unknown };
      if (typeof vp?.userId !== 'string' || typeof vp.id !== 'string') {
        send(res, 401, { error: { code: '401', message: 'VP refused (invalid): not a VP' } });
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      send(res, 200, {
        userId: vp.userId,
        holder: STAND_IN_HOLDER_DID,
        verifier: STAND_IN_VERIFIER_DID,
        vpId: vp.id,
        issuedAt: now,
        freshUntil: now + 300,
      });
      return;
    }
    if (path === '/internal/v1/users/revoke-credentials') {
      send(res, 200, { revoked: 0 });
      return;
    }
    send(res, 404, { error: { code: '404', message: 'no route' } });
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      try {
        handle(req, text, res);
      } catch {
        send(res, 500, { error: { code: '500', message: 'stand-in failed' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setDown: (value) => {
      down = value;
    },
    setBroken: (value) => {
      broken = value;
    },
    calls: (path) => calls.get(path) ?? [],
    vpTokenFor: (userId, nonce) =>
      JSON.stringify({
        login: [Buffer.from(JSON.stringify({ userId, nonce })).toString('base64url')],
      }),
    loginVpFor: (userId) => ({ userId, id: randomBytes(16).toString('hex') }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
