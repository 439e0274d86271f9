/**
 * `itp login app`: the web-site side of QR login, as a relying party's server does it: starts a
 * login request with the client's credentials, shows the requestId (to scan or paste into the
 * phone app) on stderr, waits for the approval with a progress indicator, and prints the JWT.
 */
import { readSecret } from '../input/read-input.js';
import type { Command } from './command.js';
import { optionalSeconds, optionalString, positionals, requiredString } from './values.js';

export const loginAppCommand: Command = {
  words: ['login', 'app'],
  options: {
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'client-secret-stdin': { type: 'boolean' },
    site: { type: 'string' },
    'wait-time': { type: 'string' },
  },
  async run(ctx) {
    positionals(ctx, []);
    const clientId = requiredString(ctx.values, 'client-id');
    const clientSecret = (await readSecret(
      'client-secret',
      optionalString(ctx.values, 'client-secret'),
      ctx.values['client-secret-stdin'] === true,
      ctx.stdin,
    )) as string;
    const site = requiredString(ctx.values, 'site');
    const waitTime = optionalSeconds(ctx.values, 'wait-time');
    const rp = ctx.client.auth.relyingParty({ clientId, clientSecret });
    const request = await rp.startLogin(
      waitTime === undefined ? { requestId: site } : { requestId: site, waitTime },
    );
    ctx.notify(`requestId: ${request.requestId}`);
    const progress = ctx.progress(
      `waiting up to ${request.waitTime} s for the phone app to approve ${request.requestId}`,
    );
    try {
      const result = await rp.waitForLogin(request.requestId, {
        onPoll: (poll) =>
          progress.update(
            `waiting for the phone app to approve ${request.requestId} (poll ${poll.attempt}` +
              `${poll.outcome === 'slow_down' ? ', slowed down' : ''})`,
          ),
      });
      return {
        json: result,
        text: `${result.token}\n`,
        notice: `logged in as ${result.name} (${result.userId})`,
      };
    } finally {
      progress.stop();
    }
  },
};
