/**
 * `itp wallet create [--key-file <file>] | key --key-file <file> [--address <a>] | balance <address>`
 * (the server wallet of the token API).
 */
import { keyValues } from '../output/table.js';
import type { Command } from './command.js';
import { formatEth } from './amount.js';
import { checkedAddress, createKeyFile, walletKeyOf, type NewKeyFile } from './key-file-account.js';
import { optionalString, positionals, requiredString } from './values.js';
import { readText } from '../input/read-input.js';

export const walletCreateCommand: Command = {
  words: ['wallet', 'create'],
  options: { 'key-file': { type: 'string' } },
  async run(ctx) {
    positionals(ctx, []);
    const keyFileName = optionalString(ctx.values, 'key-file');
    // Created (empty) first: a path that cannot be written fails before a wallet is made.
    const keyFile: NewKeyFile | undefined =
      keyFileName === undefined ? undefined : await createKeyFile(ctx, keyFileName);
    let written = false;
    try {
      const created = await ctx.client.token.createAddress();
      if (keyFile) {
        // The key the address signs with (login approve, login siwe, address link): derived from
        // the mnemonic; the secretKey is the token API's access secret, no Ethereum key.
        const { privateKey } = await walletKeyOf(created.mnemonic, created.address);
        await keyFile.write(privateKey);
        written = true;
      }
      return {
        json: created,
        text: keyValues(created, ['address', 'mnemonic', 'secretKey']),
        notice:
          'the mnemonic and secretKey are shown only this once: store them now ' +
          '(the secretKey authorises every transfer from this address' +
          (written
            ? `; ${keyFileName} holds the address's private key, for --key-file)`
            : '; its private key, for --key-file, comes from the mnemonic: itp wallet key)'),
      };
    } finally {
      if (!written) await keyFile?.abandon();
    }
  },
};

export const walletKeyCommand: Command = {
  words: ['wallet', 'key'],
  options: { 'key-file': { type: 'string' }, address: { type: 'string' } },
  async run(ctx) {
    positionals(ctx, []);
    const keyFileName = requiredString(ctx.values, 'key-file');
    const expected = checkedAddress(optionalString(ctx.values, 'address'));
    const keyFile = await createKeyFile(ctx, keyFileName);
    let written = false;
    try {
      const mnemonic = await readText('-', ctx.stdin, ctx.settings.workDir, 'the mnemonic');
      const key = await walletKeyOf(mnemonic, expected);
      await keyFile.write(key.privateKey);
      written = true;
      const answer = { address: key.address, keyFile: keyFileName };
      return {
        json: answer,
        text: keyValues(answer),
        notice: `${keyFileName} holds the private key of ${key.address} (for --key-file)`,
      };
    } finally {
      if (!written) await keyFile.abandon();
    }
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
