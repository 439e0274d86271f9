/** Amounts on the command line and in tables: wei as decimal strings, with ETH for reading. */
import { UsageError } from '../errors.js';

const DECIMALS = { wei: 0, gwei: 9, eth: 18 } as const;
type Unit = keyof typeof DECIMALS;

/**
 * `--amount`: wei as a whole number (`1000`), or a decimal number with a unit (`1.5eth`,
 * `20gwei`, `7wei`); returns wei as a decimal string (what the token API takes).
 */
export function parseAmount(raw: string): string {
  const match = /^(\d+)(?:\.(\d+))?\s*(wei|gwei|eth)?$/i.exec(raw.trim());
  if (!match) {
    throw new UsageError(
      `--amount must be wei (e.g. 1000000000000000000) or a number with a unit (1eth, 1.5eth, 20gwei), got "${raw}"`,
    );
  }
  const [, whole = '', fraction = '', unitRaw] = match;
  const unit = (unitRaw?.toLowerCase() ?? 'wei') as Unit;
  const decimals = DECIMALS[unit];
  if (fraction.replace(/0+$/, '').length > decimals) {
    throw new UsageError(`--amount "${raw}" has more decimals than ${unit} allows (${decimals})`);
  }
  const wei = BigInt(whole + fraction.padEnd(decimals, '0'));
  return wei.toString();
}

/** Wei (decimal string) as ETH without trailing zeros, e.g. "1500000000000000000" → "1.5". */
export function formatEth(wei: string): string {
  if (!/^\d+$/.test(wei)) return wei;
  const digits = wei.replace(/^0+(?=\d)/, '').padStart(19, '0');
  const whole = digits.slice(0, -18).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-18).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
