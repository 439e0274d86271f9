import { refuse } from './refuse.js';
import { splitCompactJws, type CompactJwsParts } from './split-compact-jws.js';

export interface DecodedPresentation {
  /** The issuer-signed JWT. */
  issuerJwt: CompactJwsParts;
  /** The disclosures as presented (base64url), in order. */
  disclosures: string[];
  /** The key binding JWT (compact), or undefined when the presentation ends in `~`. */
  keyBindingJwt: string | undefined;
  /** The presentation up to and including its last `~`: what the KB-JWT's `sd_hash` hashes. */
  withoutKeyBinding: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Splits `<issuer-signed JWT>~<disclosure>~…~<KB-JWT>` (SD-JWT §4). Refuses ('format') anything
 * else: no `~`, an issuer JWT that is not a compact JWS of JSON objects, an empty or
 * non-base64url disclosure.
 */
export function decodePresentation(presentation: string): DecodedPresentation {
  const segments = presentation.split('~');
  if (segments.length < 2) throw refuse('format', 'not an SD-JWT (no "~" separator)');
  const [jwt, ...rest] = segments as [string, ...string[]];
  const issuerJwt = splitCompactJws(jwt);
  if (issuerJwt === undefined)
    throw refuse('format', 'the issuer-signed part is not a compact JWS');
  const last = rest.pop() as string;
  if (rest.some((disclosure) => !BASE64URL.test(disclosure))) {
    throw refuse('format', 'a disclosure is empty or not base64url');
  }
  return {
    issuerJwt,
    disclosures: rest,
    keyBindingJwt: last === '' ? undefined : last,
    withoutKeyBinding: presentation.slice(0, presentation.length - last.length),
  };
}
