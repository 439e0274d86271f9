import { z } from 'zod';

/**
 * `PUBLIC_URL`: the URL clients reach the public API at (the gateway's, e.g.
 * `https://api.example.com`). The API documents (`/openapi.json`, `/openrpc/*.json`,
 * `rpc.discover`) name it as their server. Never taken from a request's Host or X-Forwarded-Host
 * (a client could make the documents point anywhere); unset, the documents carry relative server
 * URLs (`/token`), which OpenAPI and OpenRPC resolve against where the document was fetched.
 * `npm start` sets it to the gateway's address; compose and every Kubernetes overlay set it.
 */
export const publicUrlSetting = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''))
  .optional();

/**
 * Why PUBLIC_URL is refused, or undefined: outside development (APP_ENV anything but
 * `development`) it must be https unless its host is loopback (`localhost`, `*.localhost`,
 * 127.0.0.0/8, `::1`: a machine-local deployment). Wallets (OpenID4VP, OpenID4VCI) refuse plain
 * http URIs elsewhere, and Sign-In with Ethereum messages and the OpenID Connect issuer are bound
 * to it: a service that would answer them with errors refuses to start instead.
 */
export function insecurePublicUrl(
  appEnv: string,
  publicUrl: string | undefined,
): string | undefined {
  if (appEnv === 'development' || publicUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return undefined; // not a URL at all: the setting's own check says so
  }
  if (url.protocol === 'https:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback =
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  if (loopback) return undefined;
  return `must be an https URL when APP_ENV=${appEnv} (anything but development is production), unless its host is loopback: wallets, the OpenID Connect issuer and Sign-In with Ethereum messages are bound to it`;
}
