import type { Openid4vpAuthorizationRequest, Openid4vpClient } from '@openid4vc/openid4vp';

/** The verifier's answer to the response POST. */
export interface SubmitAnswer {
  status: number;
  contentType: string | null;
  /** The JSON body (the text when it is not JSON), if any. */
  body: unknown;
}

function parsedBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Builds the authorization response with the library (`vp_token` keyed by the credential query
 * id, the request's `state` added by the library) and POSTs it form-encoded to the request's
 * `response_uri` (`direct_post`).
 */
export async function submitResponse(
  client: Openid4vpClient,
  request: Openid4vpAuthorizationRequest,
  vpToken: Record<string, string[]>,
): Promise<SubmitAnswer> {
  const { authorizationResponsePayload } = await client.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: vpToken as never },
  });
  const { response } = await client.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: parsedBody(await response.text()),
  };
}
