/** `itp login --id <id> (--password-stdin | --password <p>)`: prints the JWT (--json: the login result). */
import { readSecret } from '../input/read-input.js';
import type { Command } from './command.js';
import { optionalString, positionals, requiredString } from './values.js';

export const loginCommand: Command = {
  words: ['login'],
  options: {
    id: { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  async run(ctx) {
    positionals(ctx, []);
    const id = requiredString(ctx.values, 'id');
    const password = (await readSecret(
      'password',
      optionalString(ctx.values, 'password'),
      ctx.values['password-stdin'] === true,
      ctx.stdin,
    )) as string;
    const result = await ctx.client.auth.login({ id, password });
    return {
      json: result,
      text: `${result.token}\n`,
      notice: `logged in as ${result.name} (${result.userId})`,
    };
  },
};
