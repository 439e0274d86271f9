import { RPC_ERRORS } from './rpc-errors.js';

export type DecodedBody =
  | { ok: true; text: string }
  | { ok: false; code: typeof RPC_ERRORS.UNSUPPORTED_ENCODING.code }
  | { ok: false; code: typeof RPC_ERRORS.INVALID_CHARACTER.code };

const UTF8_NAMES = new Set(['utf-8', 'utf8']);
const CHARSET_PARAM = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The `charset` parameter of a Content-Type header value, lower-cased; undefined when absent. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = CHARSET_PARAM.exec(contentType);
  const value = match?.[1] ?? match?.[2];
  return value === undefined ? undefined : value.trim().toLowerCase();
}

/**
 * Turns the raw body into JSON text. Only UTF-8 is accepted (RFC 8259 §8.1): a declared charset
 * other than utf-8, a UTF-16/UTF-32 byte pattern (a NUL in the first two bytes, which UTF-8 JSON
 * never has) → -32701; bytes that are not valid UTF-8 → -32702. A leading UTF-8 BOM is ignored.
 */
export function decodeBody(raw: string | Buffer, charset?: string): DecodedBody {
  if (charset !== undefined && !UTF8_NAMES.has(charset)) {
    return { ok: false, code: RPC_ERRORS.UNSUPPORTED_ENCODING.code };
  }
  if (typeof raw === 'string') {
    return { ok: true, text: raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw };
  }
  if (raw.length >= 2 && (raw[0] === 0 || raw[1] === 0)) {
    return { ok: false, code: RPC_ERRORS.UNSUPPORTED_ENCODING.code };
  }
  if (
    raw.length >= 2 &&
    ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff))
  ) {
    return { ok: false, code: RPC_ERRORS.UNSUPPORTED_ENCODING.code };
  }
  try {
    return { ok: true, text: decoder.decode(raw) };
  } catch {
    return { ok: false, code: RPC_ERRORS.INVALID_CHARACTER.code };
  }
}
