import type { Readable, Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { reportCliError, UsageError, type Env } from '@itp/service-kit';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { ClientAdmin } from '../clients/client-admin.js';
import { SqlClientRepository } from '../db/sql-client-repository.js';
import type { AuthDatabase } from '../db/database.js';
import { authMigrations } from '../db/migrations.js';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import { SqlCredentialRevocations } from '../db/sql-credential-revocations.js';
import { SqlLinkedAddresses } from '../db/sql-linked-addresses.js';
import { SqlLoginHistory } from '../db/sql-login-history.js';
import { SqlPasskeys } from '../db/sql-passkeys.js';
import { SqlUserRepository } from '../db/sql-user-repository.js';
import { UserAdmin, type ResetOutcome, type UserDetails } from '../users/user-admin.js';
import { cliDatabaseUrl } from './cli-config.js';
import { USAGE } from './usage.js';

export interface CliIo {
  env: Env;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Where the dev stack's data folder is looked for first (cli-config.ts); the process's by default. */
  cwd?: string;
}

const OPTIONS = {
  name: { type: 'string' },
  email: { type: 'string' },
  tel: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  secret: { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  prefix: { type: 'string', multiple: true },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'id-token-signing-alg': { type: 'string' },
  json: { type: 'boolean' },
  'keep-keys': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** All of stdin without one trailing newline (what `echo secret |` or a here-string adds). */
async function readStdin(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function secretFrom(
  values: Values,
  flag: 'password' | 'secret',
  io: CliIo,
): Promise<string | undefined> {
  const fromStdin = values[`${flag}-stdin`];
  const given = values[flag];
  if (fromStdin && given !== undefined) {
    throw new UsageError(`use either --${flag} or --${flag}-stdin`);
  }
  return fromStdin ? readStdin(io.stdin) : given;
}

/**
 * A `list` command's output: JSON (`--json`) or a table of `columns`, timestamps as ISO 8601;
 * `extraColumns` adds table-only cells derived from each item.
 */
function writeListing<T extends { createdAt: number; updatedAt: number }>(
  items: T[],
  values: Values,
  io: CliIo,
  columns: string[],
  extraColumns: (item: T) => Record<string, unknown> = () => ({}),
): void {
  const rows = items.map((item) => ({
    ...item,
    createdAt: new Date(item.createdAt).toISOString(),
    updatedAt: new Date(item.updatedAt).toISOString(),
  }));
  io.stdout.write(
    values.json
      ? `${JSON.stringify(rows, null, 2)}\n`
      : table(
          rows.map((row, i) => ({ ...row, ...extraColumns(items[i]!) })),
          columns,
        ),
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `users show --json`: timestamps as ISO 8601, epochs as the instants they are. */
function detailsJson(details: UserDetails) {
  return {
    id: details.id,
    name: details.name,
    email: details.email,
    telNo: details.telNo,
    enabled: details.enabled,
    createdAt: iso(details.createdAt),
    updatedAt: iso(details.updatedAt),
    tokensValidAfter: details.tokensValidAfter ? iso(details.tokensValidAfter * 1000) : null,
    keysValidAfter: details.keysValidAfter ? iso(details.keysValidAfter * 1000) : null,
    linkedAddresses: details.linkedAddresses.map((link) => ({
      address: link.address,
      linkedAt: iso(link.linkedAt),
    })),
    passkeys: details.passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      createdAt: iso(passkey.createdAt),
      lastUsedAt: passkey.lastUsedAt === null ? null : iso(passkey.lastUsedAt),
    })),
    lastLogins: Object.fromEntries(
      Object.entries(details.lastLogins).map(([method, at]) => [method, iso(at)]),
    ),
  };
}

function detailsText(details: UserDetails): string {
  const json = detailsJson(details);
  const lines = [
    `user             ${json.id} (${json.enabled ? 'enabled' : 'disabled'})`,
    `name             ${json.name}`,
    `email            ${json.email || '-'}`,
    `tel              ${json.telNo ?? '-'}`,
    `created          ${json.createdAt}`,
    `tokens ended     ${json.tokensValidAfter ?? 'never'}`,
    `keys ended       ${json.keysValidAfter ?? 'never'}`,
    `linked addresses ${json.linkedAddresses.length === 0 ? '-' : ''}`,
    ...json.linkedAddresses.map((link) => `  ${link.address}  linked ${link.linkedAt}`),
    `passkeys         ${json.passkeys.length === 0 ? '-' : ''}`,
    ...json.passkeys.map(
      (p) => `  ${p.name}  added ${p.createdAt}  last used ${p.lastUsedAt ?? 'never'}`,
    ),
    `last logins      ${Object.keys(json.lastLogins).length === 0 ? '-' : ''}`,
    ...Object.entries(json.lastLogins).map(([method, at]) => `  ${method.padEnd(5)} ${at}`),
    'credentials and sites: the user sees them (GET /v2/did/credentials, GET /v2/auth/account)',
  ];
  return `${lines.join('\n')}\n`;
}

function resetText(id: string, outcome: ResetOutcome): string {
  const lines = [`password of user ${id} reset: every token and session of the user ended`];
  if (outcome.unlinked.length > 0) {
    lines.push(`unlinked addresses: ${outcome.unlinked.join(', ')}`);
  }
  if (outcome.removedPasskeys > 0) lines.push(`removed passkeys: ${outcome.removedPasskeys}`);
  if (outcome.credentialsRevoked) {
    lines.push('credentials issued for the user: revoked (did-service sets their status bits)');
  } else {
    lines.push(
      'kept (--keep-keys): credentials issued for the user, and these linked addresses — review them with the user:',
      ...(outcome.keptAddresses.length > 0 ? outcome.keptAddresses : ['(no linked address)']).map(
        (address) => `  ${address}`,
      ),
    );
    if (outcome.keptPasskeys.length > 0) {
      lines.push(`kept passkeys: ${outcome.keptPasskeys.join(', ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function oneId(positionals: string[]): string {
  if (positionals.length !== 1 || !positionals[0])
    throw new UsageError('expected exactly one <id>');
  return positionals[0];
}

function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  const cells = rows.map((row) => columns.map((c) => (row[c] === null ? '-' : String(row[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n') + '\n';
}

interface Admins {
  users: UserAdmin;
  clients: ClientAdmin;
}

async function runUsers(
  command: string,
  values: Values,
  positionals: string[],
  admins: Admins,
  io: CliIo,
) {
  switch (command) {
    case 'add': {
      const id = oneId(positionals);
      if (values.name === undefined) throw new UsageError('users add needs --name');
      const password = await secretFrom(values, 'password', io);
      if (password === undefined)
        throw new UsageError('users add needs --password-stdin or --password');
      await admins.users.add({
        id,
        name: values.name,
        email: values.email,
        telNo: values.tel,
        password,
      });
      io.stdout.write(`user ${id} added\n`);
      return;
    }
    case 'list': {
      writeListing(await admins.users.list(), values, io, [
        'id',
        'name',
        'email',
        'telNo',
        'enabled',
        'createdAt',
      ]);
      return;
    }
    case 'show': {
      const details = await admins.users.show(oneId(positionals));
      io.stdout.write(
        values.json ? `${JSON.stringify(detailsJson(details), null, 2)}\n` : detailsText(details),
      );
      return;
    }
    case 'disable':
    case 'enable': {
      const id = oneId(positionals);
      await admins.users.setEnabled(id, command === 'enable');
      io.stdout.write(
        command === 'disable'
          ? `user ${id} disabled: every token and session of the user ended\n`
          : `user ${id} enabled (tokens from before the disable stay ended: log in again)\n`,
      );
      return;
    }
    case 'reset-password': {
      const id = oneId(positionals);
      const password = await secretFrom(values, 'password', io);
      if (password === undefined)
        throw new UsageError('reset-password needs --password-stdin or --password');
      const outcome = await admins.users.resetPassword(id, password, {
        keepKeys: values['keep-keys'] === true,
      });
      io.stdout.write(resetText(id, outcome));
      return;
    }
    default:
      throw new UsageError(`unknown command: users ${command}`);
  }
}

async function runClients(
  command: string,
  values: Values,
  positionals: string[],
  admins: Admins,
  io: CliIo,
) {
  switch (command) {
    case 'add': {
      const id = oneId(positionals);
      if (!values.prefix?.length) throw new UsageError('clients add needs at least one --prefix');
      const secret = await secretFrom(values, 'secret', io);
      const result = await admins.clients.add({
        id,
        name: values.name,
        secret,
        requestIdPrefixes: values.prefix,
        redirectUris: values['redirect-uri'] ?? [],
        postLogoutRedirectUris: values['post-logout-redirect-uri'] ?? [],
        backchannelLogoutUri: values['backchannel-logout-uri'],
        idTokenSigningAlg: values['id-token-signing-alg'],
      });
      io.stdout.write(`client ${id} added\n`);
      if (result.secret) {
        io.stdout.write(`client secret (shown once, store it now): ${result.secret}\n`);
      }
      return;
    }
    case 'list': {
      writeListing(
        await admins.clients.list(),
        values,
        io,
        ['id', 'name', 'enabled', 'prefixes', 'redirectUris', 'idTokenSigningAlg', 'createdAt'],
        (c) => ({
          prefixes: c.requestIdPrefixes.join(' '),
          redirectUris: c.redirectUris.join(' '),
        }),
      );
      return;
    }
    case 'set-redirect-uris': {
      const id = oneId(positionals);
      await admins.clients.setRedirectUris(id, {
        redirectUris: values['redirect-uri'] ?? [],
        postLogoutRedirectUris: values['post-logout-redirect-uri'] ?? [],
        backchannelLogoutUri: values['backchannel-logout-uri'],
      });
      io.stdout.write(`redirect URIs of client ${id} set\n`);
      return;
    }
    case 'set-id-token-signing-alg': {
      const id = oneId(positionals);
      const alg = values['id-token-signing-alg'];
      if (!alg)
        throw new UsageError('clients set-id-token-signing-alg needs --id-token-signing-alg');
      await admins.clients.setIdTokenSigningAlg(id, alg);
      io.stdout.write(`id_tokens of client ${id} are signed ${alg}\n`);
      return;
    }
    case 'disable':
    case 'enable': {
      const id = oneId(positionals);
      await admins.clients.setEnabled(id, command === 'enable');
      io.stdout.write(`client ${id} ${command}d\n`);
      return;
    }
    default:
      throw new UsageError(`unknown command: clients ${command}`);
  }
}

/**
 * The operator CLI (see USAGE). Returns the exit code; writes results to stdout and problems to
 * stderr. Opens the database of the configuration, applies pending migrations, closes it again.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let database: SqlDatabase<AuthDatabase> | undefined;
  try {
    const [group, command, ...rest] = argv;
    if (!group || group === '--help' || group === '-h' || group === 'help') {
      (group ? io.stdout : io.stderr).write(USAGE);
      return group ? 0 : 2;
    }
    if (group !== 'users' && group !== 'clients') throw new UsageError(`unknown group: ${group}`);
    if (!command) throw new UsageError(`${group} needs a command`);
    const { values, positionals } = parseArgs({
      args: rest,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    database = openSqlDatabase<AuthDatabase>(cliDatabaseUrl(io.env, io.cwd));
    await migrateToLatest(database, authMigrations);
    const hasher = new Argon2PasswordHasher();
    const admins = {
      users: new UserAdmin({
        users: new SqlUserRepository(database),
        hasher,
        addresses: new SqlLinkedAddresses(database),
        revocations: new SqlCredentialRevocations(database),
        history: new SqlLoginHistory(database),
        passkeys: new SqlPasskeys(database),
      }),
      clients: new ClientAdmin(new SqlClientRepository(database), hasher),
    };
    if (group === 'users') await runUsers(command, values, positionals, admins, io);
    else await runClients(command, values, positionals, admins, io);
    return 0;
  } catch (err) {
    return reportCliError(err, io.stderr, USAGE);
  } finally {
    await database?.close();
  }
}
