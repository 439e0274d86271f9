/**
 * `itp login siwe --key-file <file>`: Sign-In with Ethereum (EIP-4361) with the key in the file,
 * whose address must be linked to a user (`itp address link`); prints the JWT (--json: the login
 * result).
 */
import type { Command } from './command.js';
import { keyFileAccount } from './key-file-account.js';
import { positionals, requiredString } from './values.js';

export const loginSiweCommand: Command = {
  words: ['login', 'siwe'],
  options: { 'key-file': { type: 'string' } },
  async run(ctx) {
    positionals(ctx, []);
    const account = await keyFileAccount(ctx, requiredString(ctx.values, 'key-file'));
    const result = await ctx.client.auth.loginWithSiwe(account);
    return {
      json: result,
      text: `${result.token}\n`,
      notice: `logged in as ${result.name} (${result.userId}) with ${account.address}`,
    };
  },
};
