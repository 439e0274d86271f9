import { sha256Hex } from '@itp/crypto';

/**
 * The signing strings of docs/api.md §4: the method's fields exactly as sent, joined by `|`, ending
 * with `tempKey|hashKey`. The hash a client passes to signData is the hex SHA-256 of this string.
 */
export interface SigningString {
  /** The field names in order, e.g. `from|to|amount|tempKey|hashKey` (for messages). */
  template: string;
  /** The values joined by `|`. */
  text: string;
}

/** A JSON value as it appears in a signing string: strings as is, numbers in shortest form. */
function fieldText(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}

export function signingString(
  fields: ReadonlyArray<readonly [string, string | number]>,
): SigningString {
  return {
    template: fields.map(([name]) => name).join('|'),
    text: fields.map(([, value]) => fieldText(value)).join('|'),
  };
}

/** hex SHA-256 of the signing string: what signData signs. */
export function signingHash(signing: SigningString): string {
  return sha256Hex(signing.text);
}

export function transferSigningString(p: {
  from: string;
  to: string;
  amount: string;
  tempKey: string;
  hashKey: string;
}): SigningString {
  return signingString([
    ['from', p.from],
    ['to', p.to],
    ['amount', p.amount],
    ['tempKey', p.tempKey],
    ['hashKey', p.hashKey],
  ]);
}

export function createTokenSigningString(p: {
  from: string;
  name: string;
  symbol: string;
  decimals: string | number;
  initialSupply: string;
  tempKey: string;
  hashKey: string;
}): SigningString {
  return signingString([
    ['from', p.from],
    ['name', p.name],
    ['symbol', p.symbol],
    ['decimals', p.decimals],
    ['initialSupply', p.initialSupply],
    ['tempKey', p.tempKey],
    ['hashKey', p.hashKey],
  ]);
}

/** erc20 transfer / approve (to = spender) / transferFrom (from = spender). */
export function erc20SigningString(p: {
  from: string;
  contract: string;
  to: string;
  amount: string;
  tempKey: string;
  hashKey: string;
}): SigningString {
  return signingString([
    ['from', p.from],
    ['contract', p.contract],
    ['to', p.to],
    ['amount', p.amount],
    ['tempKey', p.tempKey],
    ['hashKey', p.hashKey],
  ]);
}
