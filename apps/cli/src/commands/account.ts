/**
 * One account, one key ring (docs/api.md §12), for the token's user:
 *
 *   itp account                         the user, linked addresses, passkeys, sites holding a grant,
 *                                       and the credentials issued for the user with their status
 *   itp account revoke-site <clientId>  ends that site's grants
 *   itp logout --everywhere             ends every token of the user (this one too) and every
 *                                       site's grant
 *
 * itp keeps no session (the token comes from --token / ITP_TOKEN), so there is nothing on this
 * machine to forget: `logout` without --everywhere has nothing to do and says so.
 *
 * Passkeys are only listed: itp has no authenticator to make one (a browser adds them, e.g. the
 * gateway's demo page /demo/passkeys).
 */
import type { AccountResponse, IssuedCredential } from '@itp/client';
import { UsageError } from '../errors.js';
import { keyValues, table, type Column } from '../output/table.js';
import { subjectOf } from '../step-up.js';
import type { Command } from './command.js';
import { flag, positionals, requireToken } from './values.js';

/** A titled table, or the title and "none". */
function section(
  title: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  columns: Column[],
): string {
  return rows.length === 0 ? `\n${title}: none\n` : `\n${title}\n${table(rows, columns)}`;
}

/** The passkeys as rows: name, when registered, when last used to log in ("never"), id. */
function passkeyRows(passkeys: AccountResponse['passkeys']): Array<Record<string, unknown>> {
  return passkeys.map((passkey) => ({
    name: passkey.name,
    createdAt: passkey.createdAt,
    lastUsedAt: passkey.lastUsedAt ?? 'never',
    id: passkey.id,
  }));
}

/** `itp account`: what the account holds, as a listing or (--json) one object. */
export function accountText(account: AccountResponse, credentials: IssuedCredential[]): string {
  return (
    keyValues({ userId: account.userId, name: account.name, email: account.email }) +
    section('linked addresses', account.linkedAddresses, ['address', 'linkedAt']) +
    section('passkeys', passkeyRows(account.passkeys), ['name', 'createdAt', 'lastUsedAt', 'id']) +
    section('sites', account.sites, ['clientId', 'name', 'grantedAt']) +
    section('credentials', credentials, ['id', 'holder', 'issuedAt', 'expiresAt', 'status', 'via'])
  );
}

export const accountCommand: Command = {
  words: ['account'],
  options: {},
  async run(ctx) {
    positionals(ctx, []);
    requireToken(ctx, 'account');
    const [account, credentials] = await Promise.all([
      ctx.client.auth.account(),
      ctx.client.did.credentials(),
    ]);
    return { json: { ...account, credentials }, text: accountText(account, credentials) };
  },
};

export const accountRevokeSiteCommand: Command = {
  words: ['account', 'revoke-site'],
  options: {},
  async run(ctx) {
    const [clientId] = positionals(ctx, ['clientId']) as [string];
    requireToken(ctx, 'account revoke-site');
    await ctx.client.auth.revokeSite(clientId);
    return {
      json: {},
      text: `site ${clientId}: its grants ended; it asks you to log in again\n`,
    };
  },
};

export const logoutCommand: Command = {
  words: ['logout'],
  options: { everywhere: { type: 'boolean' } },
  async run(ctx) {
    positionals(ctx, []);
    if (!flag(ctx.values, 'everywhere')) {
      throw new UsageError(
        'itp keeps no login of its own to forget (the token is --token / ITP_TOKEN: unset it); ' +
          "`itp logout --everywhere` ends every token of the user and every site's grant",
      );
    }
    const token = requireToken(ctx, 'logout --everywhere');
    await ctx.client.auth.logoutEverywhere();
    const user = subjectOf(token);
    return {
      json: {},
      text: `logged out everywhere: every token${user ? ` of ${user}` : ''} ended (this one too), and every site's grant\n`,
      notice: 'log in again with `itp login` (the token in --token / ITP_TOKEN no longer works)',
    };
  },
};
