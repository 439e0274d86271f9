/**
 * `itp address link --key-file <file> [--address <address>]` and `itp address unlink <address>`
 * (both need --token): the Ethereum addresses a user signs in with (Sign-In with Ethereum). Each
 * prints the answer as JSON (`{ address, userId }`). The key decides which address is linked:
 * `--address` names the one the user means, and a key of another address is refused before
 * anything is signed (a wallet's secretKey, for one, is the key of no address the user holds).
 */
import { UsageError } from '../errors.js';
import type { Command } from './command.js';
import {
  checkedAddress,
  keyFileAccount,
  keyMismatchError,
  sameAddress,
} from './key-file-account.js';
import { optionalString, positionals, requireToken, requiredString } from './values.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The JSON answer, on stdout in both modes. */
const printed = (answer: unknown) => ({
  json: answer,
  text: `${JSON.stringify(answer, null, 2)}\n`,
});

export const addressLinkCommand: Command = {
  words: ['address', 'link'],
  options: { 'key-file': { type: 'string' }, address: { type: 'string' } },
  async run(ctx) {
    positionals(ctx, []);
    requireToken(ctx, 'address link');
    const expected = checkedAddress(optionalString(ctx.values, 'address'));
    const keyFile = requiredString(ctx.values, 'key-file');
    const account = await keyFileAccount(ctx, keyFile);
    if (expected !== undefined && !sameAddress(account.address, expected)) {
      throw keyMismatchError(keyFile, account.address, expected, '--address');
    }
    const linked = await ctx.client.auth.linkAddress(account);
    return {
      ...printed(linked),
      notice: `${linked.address} now signs in as ${linked.userId} (itp login siwe)`,
    };
  },
};

export const addressUnlinkCommand: Command = {
  words: ['address', 'unlink'],
  options: {},
  async run(ctx) {
    const [address] = positionals(ctx, ['address']) as [string];
    if (!ADDRESS.test(address)) {
      throw new UsageError(`<address> must be a 0x address (40 hex digits), got "${address}"`);
    }
    requireToken(ctx, 'address unlink');
    return printed(await ctx.client.auth.unlinkAddress(address));
  },
};
