/**
 * Reading `WWW-Authenticate` (RFC 9110 §11.6.1): a comma-separated list of challenges, each an
 * auth-scheme followed by either a token68 or a comma-separated list of auth-params
 * (`name = token | quoted-string`, names case-insensitive). Used for the RFC 6750 Bearer
 * challenge and its RFC 9470 step-up form:
 *
 *   Bearer error="insufficient_user_authentication", error_description="…", max_age=300
 */

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The auth-scheme as sent (compare case-insensitively). */
  scheme: string;
  /** The auth-params, names lower-cased, values unquoted; the first of a repeated name counts. */
  params: Record<string, string>;
  /** The token68 form (e.g. `Negotiate <base64>`), when the challenge has one instead of params. */
  token68?: string;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * The challenges of a `WWW-Authenticate` value, in order. Lenient where the grammar allows it
 * (empty list elements, spaces around `=`); at the first malformed part it stops and returns the
 * challenges read so far, so a garbled tail never invents a parameter.
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  if (!header) return challenges;
  const text = header;
  let i = 0;

  const skipSpaces = (): void => {
    while (isSpace(text[i])) i += 1;
  };
  const readToken = (): string => {
    const start = i;
    while (i < text.length && TCHAR.test(text[i] as string)) i += 1;
    return text.slice(start, i);
  };
  /** A quoted-string at `i` (which is `"`), without its quotes and with quoted-pairs resolved. */
  const readQuoted = (): string | undefined => {
    let value = '';
    i += 1;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        i += 1;
        return value;
      }
      if (c === '\\') {
        if (i + 1 >= text.length) return undefined;
        value += text[i + 1];
        i += 2;
      } else {
        value += c;
        i += 1;
      }
    }
    return undefined; // no closing quote
  };
  /** At a list separator (`,`) or the end, after optional spaces. */
  const atElementEnd = (): boolean => {
    skipSpaces();
    return i >= text.length || text[i] === ',';
  };

  let current: AuthChallenge | undefined;
  while (i < text.length) {
    // Empty list elements and the spaces between elements.
    while (isSpace(text[i]) || text[i] === ',') i += 1;
    if (i >= text.length) break;
    const name = readToken();
    if (name === '') break;
    const afterName = i;
    skipSpaces();
    if (text[i] === '=' && current !== undefined && current.token68 === undefined) {
      // An auth-param of the current challenge.
      i += 1;
      skipSpaces();
      const value = text[i] === '"' ? readQuoted() : readToken();
      if (value === undefined || (value === '' && text[i - 1] !== '"')) break;
      const key = name.toLowerCase();
      if (!Object.hasOwn(current.params, key)) current.params[key] = value;
      if (!atElementEnd()) break;
      continue;
    }
    if (text[i] === '=') break; // a parameter before any scheme, or after a token68
    // A new challenge: `name` is its scheme.
    i = afterName;
    // No prototype: a parameter named `__proto__` or `constructor` is only a parameter.
    current = { scheme: name, params: Object.create(null) as Record<string, string> };
    challenges.push(current);
    if (!isSpace(text[i])) {
      if (!atElementEnd()) break;
      continue;
    }
    skipSpaces();
    // `Basic abc==` or `Negotiate abc`: a token68 and nothing else up to the element's end.
    // (`Bearer realm="x"` or `Bearer realm = x` read `realm=` / `realm` and go on: params.)
    const token68 = TOKEN68.exec(text.slice(i))?.[0];
    if (token68 !== undefined) {
      const mark = i;
      i += token68.length;
      if (atElementEnd()) {
        current.token68 = token68;
        continue;
      }
      i = mark;
    }
  }
  return challenges;
}

/** What an RFC 9470 step-up challenge asks for. */
export interface StepUpChallenge {
  /** `max_age`: the longest age (seconds) of the last authentication the resource accepts. */
  maxAgeSeconds?: number;
  /** `acr_values`: the authentication context classes it accepts, in order of preference. */
  acrValues?: string[];
  /** `error_description`. */
  description?: string;
}

/** RFC 9470 §3's error code. */
export const INSUFFICIENT_USER_AUTHENTICATION = 'insufficient_user_authentication';

/**
 * The step-up challenge in a `WWW-Authenticate` value: its Bearer challenge with
 * `error="insufficient_user_authentication"`, or undefined when there is none.
 */
export function stepUpChallengeOf(header: string | null | undefined): StepUpChallenge | undefined {
  const bearer = parseWwwAuthenticate(header).find(
    (c) =>
      c.scheme.toLowerCase() === 'bearer' && c.params['error'] === INSUFFICIENT_USER_AUTHENTICATION,
  );
  if (!bearer) return undefined;
  const challenge: StepUpChallenge = {};
  const maxAge = bearer.params['max_age'];
  if (maxAge !== undefined && /^\d+$/.test(maxAge) && Number.isSafeInteger(Number(maxAge))) {
    challenge.maxAgeSeconds = Number(maxAge);
  }
  const acr = bearer.params['acr_values']?.split(' ').filter((v) => v !== '');
  if (acr && acr.length > 0) challenge.acrValues = acr;
  const description = bearer.params['error_description'];
  if (description !== undefined) challenge.description = description;
  return challenge;
}
