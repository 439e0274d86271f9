import { describe, expect, it } from '@jest/globals';
import { createJwtVerifier } from '@itp/auth-jwt';
import { DEMO_SITE, DEMO_USER, bearerOfDemoUser, credentialAndPresentation } from '../flows.js';
import { basicAuth, post } from '../http.js';
import { SETUP_SETTINGS } from '../setup-settings.js';
import type { Suite } from './context.js';

const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };

/**
 * /v2/auth through the gateway: password login (the token checked against the JWKS), REST errors,
 * the body limit, the per-address login limit, a web-site login approved by the app.
 */
export const authSuite: Suite = ({ stack }) => {
  describe('auth-service through the gateway', () => {
    it('logs in; the token verifies against the JWKS served through the gateway', async () => {
      const gw = stack().gatewayUrl;
      const res = await post(`${gw}/v2/auth/auth-user`, {
        id: DEMO_USER.id,
        password: DEMO_USER.password,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ userId: DEMO_USER.id, name: DEMO_USER.name });
      const verifier = createJwtVerifier({
        jwksUrl: `${gw}/v2/auth/.well-known/jwks.json`,
        issuer: 'itp-auth',
        audience: 'itp',
      });
      await expect(verifier.verify(res.body.token as string)).resolves.toMatchObject({
        userId: DEMO_USER.id,
      });
    });

    it('passes the REST errors through: 401, 400 for malformed JSON, invalid_client', async () => {
      const gw = stack().gatewayUrl;
      const wrong = await post(`${gw}/v2/auth/auth-user`, {
        id: 'nobody-here',
        password: 'wrong-password',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: { code: '401', message: 'Invalid id or password' } });
      const malformed = await post(`${gw}/v2/auth/auth-user`, '{"id":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: { code: '400', message: 'Malformed JSON body' } });
      const noClient = await post(`${gw}/v2/auth/auth-user-by-app`, {
        requestId: `${DEMO_SITE.requestIdPrefix}?`,
      });
      expect(noClient.status).toBe(401);
      expect(noClient.body.error.code).toBe('invalid_client');
    });

    it('reads a body of exactly 1 MiB (unknown members ignored) and answers 413 to one byte more', async () => {
      const gw = stack().gatewayUrl;
      const padded = (size: number) => {
        const head = `{"id":"${DEMO_USER.id}","password":"${DEMO_USER.password}","pad":"`;
        return `${head}${'x'.repeat(size - head.length - 2)}"}`;
      };
      const limit = 1024 * 1024;
      const atLimit = await post(`${gw}/v2/auth/auth-user`, padded(limit));
      expect(atLimit.status).toBe(200);
      expect(atLimit.body).toMatchObject({ userId: DEMO_USER.id });
      const over = await post(`${gw}/v2/auth/auth-user`, padded(limit + 1));
      expect(over.status).toBe(413);
      expect(over.body).toEqual({
        error: { code: '413', message: 'Request body is larger than the limit' },
      });
    });

    it('rate limits failed logins per client address as the gateway reports it', async () => {
      const gw = stack().gatewayUrl;
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < SETUP_SETTINGS.loginFailuresPerIp; i += 1) {
        const res = await post(
          `${gw}/v2/auth/auth-user`,
          { id: `ghost-${i}`, password: 'wrong-password' },
          from('203.0.113.50'),
        );
        expect(res.status).toBe(401);
      }
      const credentials = { id: DEMO_USER.id, password: DEMO_USER.password };
      const limited = await post(`${gw}/v2/auth/auth-user`, credentials, from('203.0.113.50'));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await post(`${gw}/v2/auth/auth-user`, credentials, from('203.0.113.51'));
      expect(other.status).toBe(200);
    });

    it('runs a web-site login approved by the phone app; ten polls at once get the result once', async () => {
      const gw = stack().gatewayUrl;
      const created = await post(
        `${gw}/v2/auth/auth-user-by-app`,
        { requestId: `${DEMO_SITE.requestIdPrefix}login?`, waitTime: 120 },
        site,
      );
      expect(created.status).toBe(200);
      const { requestId } = created.body as { requestId: string };
      const poll = () => post(`${gw}/v2/auth/auth-user-result-by-app`, { requestId }, site);
      expect((await poll()).status).toBe(401);

      const { presentation } = await credentialAndPresentation(
        gw,
        await bearerOfDemoUser(gw),
        'phone-qr-login',
      );
      const approved = await post(`${gw}/v2/auth/auth-user-with-vp`, {
        vp: presentation,
        requestId,
      });
      expect(approved.status).toBe(200);
      expect(approved.body.userId).toBe(DEMO_USER.id);

      // The hand-out-once race (the setups have no poll interval, so none is a 429 slow_down):
      // exactly one result, the nine others 400 (handed out).
      const polls = await Promise.all(Array.from({ length: 10 }, poll));
      const results = polls.filter((p) => p.status === 200);
      expect(results).toHaveLength(1);
      expect(results[0]!.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });
      expect(polls.map((p) => p.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
    }, 120_000);
  });
};
