import type { ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import type { Resolvable } from 'did-resolver';
import { openid4vpClient, presentationJwt } from '@itp/wallet';

/**
 * Test helper: a third-party OpenID4VP 1.0 wallet — @itp/wallet's `Openid4vpClient` (the request
 * object's signature checked through `resolver`, the stack's did:ethr resolver) and its VP JWTs,
 * here with a fetch of its own: the request_uri serves the request object the test hands in,
 * and the answer (form-encoded, direct_post) is captured instead of sent.
 */
export function oid4vpTestWallet(resolver: Resolvable) {
  // The request_uri / response_uri of the specs are http (loopback); tests only.
  setGlobalConfig({ allowInsecureUrls: true });
  let requestObject = '';
  let posted: URLSearchParams | undefined;
  const fetchCallback = async (_input: string | URL | Request, init?: RequestInit) => {
    if (init?.method === 'POST') {
      posted = new URLSearchParams(String(init.body));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }
    return new Response(requestObject, {
      headers: { 'content-type': 'application/oauth-authz-req+jwt' },
    });
  };
  const client = openid4vpClient({ resolver, fetch: fetchCallback as typeof fetch });

  return {
    /** Reads `openid4vp://?client_id=…&request_uri=…` whose request_uri answers `served`. */
    async resolve(
      clientId: string,
      served: string,
      requestUri = 'http://127.0.0.1:9/oid4vp/request',
    ): Promise<ResolvedOpenid4vpAuthorizationRequest> {
      requestObject = served;
      const uri = `openid4vp://?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`;
      const wallet = await client;
      const parsed = wallet.parseOpenid4vpAuthorizationRequest({ authorizationRequest: uri });
      return wallet.resolveOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: parsed.params,
      });
    },

    /**
     * A VP JWT of `holder` signed with `privateKey` (0x hex), holding `credentials` (VC JWTs),
     * `aud` (as a one-element array) and `nonce` bound to the verifier.
     */
    presentation(
      holder: string,
      privateKey: string,
      credentials: string[],
      options: { aud: string; nonce: string },
    ): Promise<string> {
      return presentationJwt({ did: holder, privateKey }, credentials, {
        aud: [options.aud],
        nonce: options.nonce,
      });
    },

    /**
     * Answers the resolved request with `vpToken` (the library builds and posts the response)
     * and returns the `vp_token` form value as the response URI received it.
     */
    async answer(
      resolved: ResolvedOpenid4vpAuthorizationRequest,
      vpToken: Record<string, string[]>,
    ): Promise<{ vpToken: string; state: string | null }> {
      const wallet = await client;
      const { authorizationRequestPayload } = resolved;
      const response = await wallet.createOpenid4vpAuthorizationResponse({
        authorizationRequestPayload,
        authorizationResponsePayload: { vp_token: vpToken as never },
      });
      posted = undefined;
      const responseUri = authorizationRequestPayload.response_uri;
      if (typeof responseUri !== 'string') throw new Error('the request has no response_uri');
      await wallet.submitOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: { response_uri: responseUri },
        authorizationResponsePayload: response.authorizationResponsePayload,
      });
      const form = posted as URLSearchParams | undefined;
      if (!form) throw new Error('the wallet posted nothing');
      return { vpToken: form.get('vp_token') ?? '', state: form.get('state') };
    },
  };
}
