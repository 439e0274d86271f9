import type {
  Openid4vpAuthorizationRequest,
  Openid4vpClient,
  ResolvedOpenid4vpAuthorizationRequest,
} from '@openid4vc/openid4vp';
import type { DcqlQuery } from 'dcql';
import { Openid4vpWalletError } from './wallet-error.js';
import { walletPackages } from './wallet-packages.js';

/** What the wallet read from a verified request object, ready to answer. */
export interface ResolvedLoginRequest {
  /** The request object's claims, verified (signature, client id, response mode). */
  request: Openid4vpAuthorizationRequest;
  /** The full client id, prefix included: the `aud` of the presentation (OpenID4VP §14.8). */
  clientId: string;
  /** The verifier's DID: the client id without its `decentralized_identifier:` prefix. */
  verifierDid: string;
  /** The DID URL (`kid`) of the key that signed the request object. */
  signerKid: string;
  nonce: string;
  state: string | undefined;
  responseUri: string;
  /** The DCQL query as the request carries it (parsed and validated by `dcql`). */
  dcqlQuery: DcqlQuery.Output;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && LOOPBACK.has(url.hostname);

/** A verifier URL: https, or http on this machine's loopback (tests, `npm start`). */
function checkedUrl(raw: string | undefined, what: string, allowInsecureUrls: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw new Openid4vpWalletError(`the request's ${what} is not a URL`, 'invalid_request');
  }
  if (!allowInsecureUrls && url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw new Openid4vpWalletError(
      `the request's ${what} must be https (or http on loopback): ${raw}`,
      'invalid_request',
    );
  }
  return url;
}

/** The `request_uri` parameter of an `openid4vp://?…` URI, if any. */
function requestUriOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('request_uri') ?? undefined;
  } catch {
    throw new Openid4vpWalletError('not an OpenID4VP request: not a URI', 'invalid_request');
  }
}

const refused = (message: string) => new Openid4vpWalletError(message, 'invalid_request');

/**
 * Takes an `openid4vp://` URI (the QR code's content), fetches the request object from its
 * `request_uri` and verifies it with `client`: the signature through the DID of the client id
 * (prefix `decentralized_identifier`), the client id equal to the URI's, `direct_post`, a valid
 * DCQL query, https URIs (http on loopback; any with `allowInsecureUrls`, which also sets the
 * library's process-wide config that way).
 */
export async function resolveRequest(
  client: Openid4vpClient,
  uri: string,
  options: { allowInsecureUrls?: boolean } = {},
): Promise<ResolvedLoginRequest> {
  const { openid4vp, utils, dcql } = await walletPackages();
  const allowInsecureUrls = options.allowInsecureUrls ?? false;
  const requestUri = requestUriOf(uri);
  // The library refuses http URLs; a verifier on loopback is allowed (its response URI too).
  utils.setGlobalConfig({
    allowInsecureUrls:
      allowInsecureUrls ||
      (requestUri !== undefined &&
        isLoopbackHttp(checkedUrl(requestUri, 'request_uri', allowInsecureUrls))),
  });
  let parsed: ReturnType<Openid4vpClient['parseOpenid4vpAuthorizationRequest']>;
  try {
    parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: uri });
  } catch (err) {
    throw refused(`not an OpenID4VP request: ${(err as Error).message}`);
  }
  let resolved: ResolvedOpenid4vpAuthorizationRequest;
  try {
    resolved = await client.resolveOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params,
    });
  } catch (err) {
    throw refused(`the request does not resolve or verify: ${(err as Error).message}`);
  }
  if (!resolved.jar) throw refused('the request is not signed (no request object)');
  const request = resolved.authorizationRequestPayload;
  if (openid4vp.isOpenid4vpAuthorizationRequestDcApi(request)) {
    throw refused('a Digital Credentials API request where a cross-device one was expected');
  }
  if (resolved.client.prefix !== 'decentralized_identifier' || !resolved.client.didUrl) {
    throw refused(`client id prefix ${resolved.client.prefix}, not decentralized_identifier`);
  }
  if (request.response_mode !== 'direct_post') {
    throw refused(
      `response_mode ${String(request.response_mode)} is not supported (direct_post only)`,
    );
  }
  const responseUri = request.response_uri;
  checkedUrl(responseUri, 'response_uri', allowInsecureUrls);
  if (!resolved.dcql) throw refused('the request has no DCQL credential query');
  let dcqlQuery: DcqlQuery.Output;
  try {
    dcqlQuery = dcql.DcqlQuery.parse(resolved.dcql.query as DcqlQuery.Input);
    dcql.DcqlQuery.validate(dcqlQuery);
  } catch (err) {
    throw refused(`the request's DCQL query is not valid: ${(err as Error).message}`);
  }
  return {
    request,
    clientId: request.client_id ?? '',
    verifierDid: resolved.client.identifier,
    signerKid: resolved.client.didUrl,
    nonce: request.nonce,
    state: request.state,
    responseUri: responseUri ?? '',
    dcqlQuery,
  };
}
