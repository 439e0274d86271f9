import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { sendJson, startTestServer, type TestServer } from './http-server.js';

export interface AuthStandIn extends TestServer {
  /** A JWT as auth-service issues it (ES256, kid, iss itp-auth, aud itp). */
  tokenFor(userId: string, options?: { expiresInSeconds?: number }): Promise<string>;
  /** A well-formed JWT signed with a key that is not in the JWKS. */
  foreignTokenFor(userId: string): Promise<string>;
}

/**
 * A stand-in for auth-service's JWKS (`/v2/auth/.well-known/jwks.json`) for did-service tests
 * while auth-service is built in parallel: tokens are real ES256 JWTs, verified by
 * @itp/auth-jwt exactly as in production.
 */
export async function startAuthStandIn(
  issuer = 'itp-auth',
  audience = 'itp',
): Promise<AuthStandIn> {
  const kid = 'test-key-1';
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const foreign = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = await startTestServer((req, _body, res) => {
    if (req.url === '/v2/auth/.well-known/jwks.json') sendJson(res, 200, { keys: [jwk] });
    else sendJson(res, 404, { error: { code: '404', message: 'no route' } });
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
  };
}
