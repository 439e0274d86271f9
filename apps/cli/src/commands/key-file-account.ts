/**
 * The Ethereum account of a `--key-file`: a hex secp256k1 private key (`0x` optional, surrounding
 * whitespace ignored), as `login approve`, `login siwe` and `address link` read it, and as
 * `wallet create --key-file` / `wallet key` write it. viem loads only when it is needed.
 *
 * A server wallet's `secretKey` (createAddress) is the token API's access secret for that
 * address, not its private key: 64 hex digits too, so it reads as a key of some unrelated
 * address. The key that signs for the wallet's address is derived from its mnemonic (BIP-44
 * m/44'/60'/0'/0/0, as token-rpc derives it).
 */
import { open, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LocalAccount } from 'viem';
import { FailedError, UsageError } from '../errors.js';
import { readText } from '../input/read-input.js';
import type { CommandContext } from './command.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** How to get the key that signs for a wallet address (every mismatch message ends with it). */
export const WALLET_KEY_HINT =
  "a wallet's secretKey is not its Ethereum key: itp wallet create --key-file <file> writes the " +
  'key of the new address, and `jq -r .mnemonic wallet.json | itp wallet key --key-file <file>` ' +
  'the key of an existing one';

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

/** `--address`, when given: a 0x address (40 hex digits). */
export function checkedAddress(
  value: string | undefined,
  option = '--address',
): string | undefined {
  if (value !== undefined && !ADDRESS.test(value)) {
    throw new UsageError(`${option} must be a 0x address (40 hex digits), got "${value}"`);
  }
  return value;
}

/**
 * The refusal of a key that is not `expected`'s (exit 2): names both addresses, and how to get
 * the key of a wallet address.
 */
export function keyMismatchError(
  keyFile: string,
  keyAddress: string,
  expected: string,
  whose: string,
): UsageError {
  return new UsageError(
    `--key-file ${keyFile} is the key of ${keyAddress}, not of ${whose} ${expected} ` +
      `(${WALLET_KEY_HINT})`,
  );
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The key a server wallet signs with, derived from its mnemonic (BIP-44 m/44'/60'/0'/0/0, as
 * token-rpc's createAddress derives it); refused (exit 1) when it is not `address`'s.
 */
export async function walletKeyOf(
  mnemonic: string,
  address?: string,
): Promise<{ address: string; privateKey: `0x${string}` }> {
  const words = mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
  const { mnemonicToAccount } = await import('viem/accounts');
  let account: ReturnType<typeof mnemonicToAccount>;
  try {
    account = mnemonicToAccount(words);
  } catch (err) {
    throw new UsageError(`not a BIP-39 mnemonic: ${(err as Error).message}`);
  }
  const key = account.getHdKey().privateKey;
  if (!key) throw new UsageError('the mnemonic derives no private key');
  if (address !== undefined && !sameAddress(account.address, address)) {
    throw new FailedError(
      `the mnemonic's key (m/44'/60'/0'/0/0) is the key of ${account.address}, not of ${address}`,
      'key_mismatch',
    );
  }
  return { address: account.address, privateKey: `0x${Buffer.from(key).toString('hex')}` };
}

/** A key file being written: created empty (owner-only, never over an existing file), filled later. */
export interface NewKeyFile {
  write(privateKey: string): Promise<void>;
  /** Removes the file when nothing was written (the command failed before). */
  abandon(): Promise<void>;
}

/**
 * Creates `keyFile` (relative to the caller's directory) for a private key: mode 0600, refused
 * (exit 2) when it exists — itp never overwrites a key. Created before the key exists, so a bad
 * path fails before a wallet is made.
 */
export async function createKeyFile(ctx: CommandContext, keyFile: string): Promise<NewKeyFile> {
  if (keyFile === '-') {
    throw new UsageError('--key-file must name a file to write (not -): the key is not printed');
  }
  const path = resolve(ctx.settings.workDir, keyFile);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'EEXIST'
        ? `--key-file ${keyFile} exists: itp never overwrites a key file`
        : `--key-file ${keyFile}: cannot create it (${code ?? (err as Error).message})`,
    );
  }
  let written = false;
  return {
    async write(privateKey) {
      try {
        await handle.writeFile(`${privateKey}\n`, 'utf8');
        written = true;
      } finally {
        await handle.close();
      }
    },
    async abandon() {
      if (written) return;
      await handle.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
    },
  };
}
