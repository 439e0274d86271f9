/** `itp did create | issuers | verifiers`. */
import type { ServiceDidEntry } from '@itp/client';
import { readSecret } from '../input/read-input.js';
import { keyValues, table } from '../output/table.js';
import type { Command } from './command.js';
import { flag, optionalString, positionals, requiredString } from './values.js';

export const didCreateCommand: Command = {
  words: ['did', 'create'],
  options: {
    alias: { type: 'string' },
    address: { type: 'string' },
    'secret-key': { type: 'string' },
    'secret-key-stdin': { type: 'boolean' },
  },
  async run(ctx) {
    positionals(ctx, []);
    const alias = requiredString(ctx.values, 'alias');
    const address = requiredString(ctx.values, 'address');
    const secretKey = (await readSecret(
      'secret-key',
      optionalString(ctx.values, 'secret-key'),
      flag(ctx.values, 'secret-key-stdin'),
      ctx.stdin,
    )) as string;
    // With a token (--token / ITP_TOKEN) the client sends it as bearer: the DID is bound to that user.
    const record = await ctx.client.did.createDid({ alias, address, secretKey });
    return {
      json: record,
      text: keyValues({
        did: record.did,
        alias: record.alias,
        provider: record.provider,
        controllerKeyId: record.controllerKeyId,
        keys: record.keys.map((k) => k.kid).join(' '),
        boundToUser:
          ctx.settings.token !== undefined ? 'yes (the --token user)' : 'no (no --token)',
      }),
    };
  },
};

function serviceDidList(words: readonly string[], list: 'issuers' | 'verifiers'): Command {
  return {
    words,
    options: {},
    async run(ctx) {
      positionals(ctx, []);
      const entries: ServiceDidEntry[] = await ctx.client.did[list]();
      return { json: entries, text: table(entries, ['alias', 'did']) };
    },
  };
}

export const didIssuersCommand = serviceDidList(['did', 'issuers'], 'issuers');
export const didVerifiersCommand = serviceDidList(['did', 'verifiers'], 'verifiers');
