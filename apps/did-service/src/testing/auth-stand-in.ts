import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { sendJson, startTestServer, type TestServer } from './http-server.js';

export interface AuthStandIn extends TestServer {
  /** A JWT as auth-service issues it (ES256, kid, iss itp-auth, aud itp). */
  tokenFor(userId: string, options?: { expiresInSeconds?: number }): Promise<string>;
  /** A well-formed JWT signed with a key that is not in the JWKS. */
  foreignTokenFor(userId: string): Promise<string>;
  /** What `/internal/v1/users/status` answers for the user from now on (default: active). */
  setActive(userId: string, active: boolean): void;
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
      sendJson(res, 200, { userId, active: !inactive.has(userId) });
      return;
    }
    sendJson(res, 404, { error: { code: '404', message: 'no route' } });
  });
  const sign = (key: CryptoKey, userId: string, expiresInSeconds = 3600) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(key);
  return {
    ...server,
    tokenFor: (userId, options) => sign(privateKey, userId, options?.expiresInSeconds),
    foreignTokenFor: (userId) => sign(foreign.privateKey, userId),
    setActive: (userId, active) => {
      if (active) inactive.delete(userId);
      else inactive.add(userId);
    },
    setStatusDown: (down) => {
      statusDown = down;
    },
    statusCalls: () => statusCalls,
  };
}
