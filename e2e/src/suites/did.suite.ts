import { describe, expect, it } from '@jest/globals';
import { bearerOfDemoUser, credentialAndPresentation } from '../flows.js';
import { post } from '../http.js';
import type { Suite } from './context.js';

/**
 * /v2/did through the gateway: create-did → create-vc → verify-vc → create-vp → verify-vp, its
 * refusals; the internal API is not reachable.
 */
export const didSuite: Suite = ({ stack }) => {
  describe('did-service through the gateway', () => {
    it('runs the identity flow: create-did → create-vc → verify-vc → create-vp → verify-vp', async () => {
      const gw = stack().gatewayUrl;
      const bearer = await bearerOfDemoUser(gw);
      const { did, credential, presentation } = await credentialAndPresentation(
        gw,
        bearer,
        'identity-flow',
      );
      expect(did).toMatch(/^did:ethr:/);
      const vc = await post(`${gw}/v2/did/verify-vc`, credential);
      expect(vc.status).toBe(200);
      expect(vc.body.verified).toBe(true);
      const vp = await post(`${gw}/v2/did/verify-vp`, presentation);
      expect(vp.status).toBe(200);
      expect(vp.body.verified).toBe(true);

      const issuers = (await (await fetch(`${gw}/v2/did/issuers`)).json()) as Array<{
        did: string;
      }>;
      const refused = await post(`${gw}/v2/did/create-vc`, {
        holder: did,
        issuer: issuers[0]!.did,
      });
      expect(refused).toMatchObject({
        status: 401,
        body: { error: { code: '401', message: expect.any(String) } },
      });
    }, 60_000);

    it('does not route the internal API, nor does any service answer it on its public port', async () => {
      const { gatewayUrl, replicas } = stack();
      const bearer = { authorization: 'Bearer not-an-internal-token' };
      expect(
        (await post(`${gatewayUrl}/internal/v1/verify-login-vp`, { vp: {} }, bearer)).status,
      ).toBe(404);
      for (const name of ['did-service', 'auth-service', 'token-rpc']) {
        for (const replica of replicas[name] ?? []) {
          const res = await post(`${replica.url}/internal/v1/verify-login-vp`, { vp: {} }, bearer);
          expect({ name, index: replica.index, status: res.status }).toEqual({
            name,
            index: replica.index,
            status: 404,
          });
        }
      }
    });
  });
};
