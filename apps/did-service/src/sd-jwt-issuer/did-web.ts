/** The issuer's did:web, derived from PUBLIC_URL (W3C did:web method, §3.2). */
export interface DidWeb {
  /** `did:web:<host>` (a port as `%3A<port>`), then `:<segment>` for each path segment. */
  did: string;
  /** Where a did:web resolver fetches the document (always https). */
  documentUrl: string;
  /** PUBLIC_URL's host name (lower case, no port): what the x5c leaf's SAN dNSName must name. */
  host: string;
  /**
   * Set when PUBLIC_URL has a path: the document is resolved at `<origin>/<path>/did.json`, which
   * this service does not serve (it serves `/.well-known/did.json`): the operator's reverse proxy
   * must map that URL to the gateway's `/.well-known/did.json` (docs/operations.md).
   */
  pathWarning?: string;
}

/**
 * did:web of `publicUrl`: the host with a port percent-encoded (`localhost%3A8443`), path
 * segments as `:`-separated parts (each percent-encoded), as the did:web method says; the
 * document URL is what a resolver (e.g. web-did-resolver) fetches for that DID.
 */
export function didWebOf(publicUrl: string): DidWeb {
  const url = new URL(publicUrl);
  const host = url.hostname.toLowerCase();
  const authority = url.port ? `${host}%3A${url.port}` : host;
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => encodeURIComponent(decodeURIComponent(s)));
  const did = ['did:web', authority, ...segments].join(':');
  const origin = `https://${url.host.toLowerCase()}`;
  if (segments.length === 0) {
    return { did, host, documentUrl: `${origin}/.well-known/did.json` };
  }
  const documentUrl = `${origin}/${segments.join('/')}/did.json`;
  return {
    did,
    host,
    documentUrl,
    pathWarning: `PUBLIC_URL has a path: the issuer's ${did} resolves at ${documentUrl}, which did-service does not serve (it serves /.well-known/did.json): map that URL to the gateway's /.well-known/did.json in the reverse proxy in front of it (docs/operations.md)`,
  };
}
