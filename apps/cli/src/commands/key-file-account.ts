/**
 * The Ethereum account of a `--key-file`: a hex secp256k1 private key (`0x` optional, surrounding
 * whitespace ignored), as `login approve --key-file` reads it. viem loads only when it is needed.
 */
import type { LocalAccount } from 'viem';
import { UsageError } from '../errors.js';
import { readText } from '../input/read-input.js';
import type { CommandContext } from './command.js';

/** A viem LocalAccount for the key in `keyFile` (a file, or `-` for stdin). */
export async function keyFileAccount(ctx: CommandContext, keyFile: string): Promise<LocalAccount> {
  const text = await readText(keyFile, ctx.stdin, ctx.settings.workDir, 'the key');
  const hex = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new UsageError(
      `--key-file ${keyFile}: not a secp256k1 private key (64 hex digits, 0x optional)`,
    );
  }
  const { privateKeyToAccount } = await import('viem/accounts');
  try {
    return privateKeyToAccount(`0x${hex}`);
  } catch {
    // 64 hex digits outside the curve's order (0, or ≥ n).
    throw new UsageError(`--key-file ${keyFile}: not a valid secp256k1 private key`);
  }
}
