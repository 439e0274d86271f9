import { z } from 'zod';

/**
 * `PUBLIC_URL`: the URL clients reach the public API at (the gateway's, e.g.
 * `https://api.example.com`). The OpenRPC documents' `servers[].url` are built from it; unset,
 * from the origin of each `rpc.discover` request (Host / X-Forwarded-Host and -Proto as trust
 * proxy allows). Set it in production so the documents never reflect a request's Host header.
 */
export const publicUrlSetting = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''))
  .optional();
