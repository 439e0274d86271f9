import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { sendJson, startTestServer, type TestServer } from './http-server.js';

export interface TokenOptions {
  expiresInSeconds?: number;
  /** `iat`, Unix seconds; default now. */
  issuedAt?: number;
  /** `auth_time`, Unix seconds; default `issuedAt`; null: no `auth_time` claim. */
  authTime?: number | null;
}

export interface AuthStandIn extends TestServer {
  /**
   * A JWT as auth-service issues it (ES256, kid, iss itp-auth, aud itp, `auth_time`), signed
   * with the key of the JWKS: `issuedAt` (Unix seconds, default now) sets `iat`, `authTime`
   * (default `issuedAt`) the `auth_time` of a login made earlier; `authTime: null` leaves it
   * out (a token from before `auth_time` existed).
   */
  tokenFor(userId: string, options?: TokenOptions): Promise<string>;
  /** A well-formed JWT signed with a key that is not in the JWKS. */
  foreignTokenFor(userId: string): Promise<string>;
  /** What `/internal/v1/users/status` answers for the user from now on (default: active). */
  setActive(userId: string, active: boolean): void;
  /**
   * The user's `tokensValidAfter` (Unix seconds) `/internal/v1/users/status` answers from now
   * on (default 0): a reset, a disable or a logout everywhere.
   */
  setTokensValidAfter(userId: string, tokensValidAfter: number): void;
  /** While true, `/internal/v1/users/status` fails with 503 (auth-service's database is down). */
  setStatusDown(down: boolean): void;
  /** How many users/status calls were answered. */
  statusCalls(): number;
}

/**
 * A stand-in for auth-service's JWKS (`/v2/auth/.well-known/jwks.json`) and its internal
 * `POST /internal/v1/users/status` (bearer internal token) for did-service tests: tokens are real
 * ES256 JWTs, verified by @itp/auth-jwt exactly as in production; users are active unless a test
 * disables them.
 */
export async function startAuthStandIn(
  internalApiToken: string,
  issuer = 'itp-auth',
  audience = 'itp',
): Promise<AuthStandIn> {
  const inactive = new Set<string>();
  const epochs = new Map<string, number>();
  let statusDown = false;
  let statusCalls = 0;
  const kid = 'test-key-1';
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const foreign = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = await startTestServer((req, body, res) => {
    if (req.url === '/v2/auth/.well-known/jwks.json') {
      sendJson(res, 200, { keys: [jwk] });
      return;
    }
    if (req.url === '/internal/v1/users/status' && req.method === 'POST') {
      if (req.headers.authorization !== `Bearer ${internalApiToken}`) {
        sendJson(res, 401, {
          error: { code: '401', message: 'Internal API token missing or wrong' },
        });
        return;
      }
      if (statusDown) {
        sendJson(res, 503, { error: { code: '503', message: 'The user store is unavailable' } });
        return;
      }
      const { userId } = JSON.parse(body) as { userId: string };
      statusCalls += 1;
      sendJson(res, 200, {
        userId,
        active: !inactive.has(userId),
        tokensValidAfter: epochs.get(userId) ?? 0,
      });
      return;
    }
    sendJson(res, 404, { error: { code: '404', message: 'no route' } });
  });
  const sign = (key: CryptoKey, userId: string, options: TokenOptions = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = options.issuedAt ?? now;
    const authTime = options.authTime === undefined ? issuedAt : options.authTime;
    return new SignJWT(authTime === null ? {} : { auth_time: authTime })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
      .sign(key);
  };
  return {
    ...server,
    tokenFor: (userId, options) => sign(privateKey, userId, options),
    foreignTokenFor: (userId) => sign(foreign.privateKey, userId),
    setActive: (userId, active) => {
      if (active) inactive.delete(userId);
      else inactive.add(userId);
    },
    setTokensValidAfter: (userId, tokensValidAfter) => {
      epochs.set(userId, tokensValidAfter);
    },
    setStatusDown: (down) => {
      statusDown = down;
    },
    statusCalls: () => statusCalls,
  };
}
