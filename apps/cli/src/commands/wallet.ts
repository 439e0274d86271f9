/** `itp wallet create | balance <address>` (the server wallet of the token API). */
import { keyValues } from '../output/table.js';
import type { Command } from './command.js';
import { formatEth } from './amount.js';
import { positionals } from './values.js';

export const walletCreateCommand: Command = {
  words: ['wallet', 'create'],
  options: {},
  async run(ctx) {
    positionals(ctx, []);
    const created = await ctx.client.token.createAddress();
    return {
      json: created,
      text: keyValues(created, ['address', 'mnemonic', 'secretKey']),
      notice:
        'the mnemonic and secretKey are shown only this once: store them now ' +
        '(the secretKey authorises every transfer from this address)',
    };
  },
};

export const walletBalanceCommand: Command = {
  words: ['wallet', 'balance'],
  options: {},
  async run(ctx) {
    const [address] = positionals(ctx, ['address']) as [string];
    const result = await ctx.client.token.getBalance({ address });
    return {
      json: result,
      text: keyValues({
        address: result.address,
        balance: `${result.balance} wei (${formatEth(result.balance)} ETH)`,
      }),
    };
  },
};
