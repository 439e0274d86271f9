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
