import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { reportCliError, UsageError, type Env } from '@itp/service-kit';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { KmsSecretBox } from '../agent/kms-keyring.js';
import { kmsKeyReport, reencryptKmsKeys } from '../agent/kms-rotation.js';
import { openVeramoDataSource } from '../agent/veramo-data-source.js';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { IssuerKeySeal } from '../sd-jwt-issuer/issuer-key-seal.js';
import { IssuerKeyStore } from '../sd-jwt-issuer/issuer-key-store.js';
import { resolveKmsKeys } from '../secrets.js';
import { cliDatabaseUrl, loadCliConfig, loadCredentialsCliConfig } from './cli-config.js';
import { revokeFromCli } from './revoke-command.js';
import { runSdJwtIssuer } from './sd-jwt-issuer-command.js';
import { USAGE } from './usage.js';

export interface CliIo {
  env: Env;
  stdout: Writable;
  stderr: Writable;
  /** Where `credentials revoke` reads the VC when no argument gives it. */
  stdin?: Readable;
  /** Where the dev stack's data folder is looked for first (cli-config.ts); the process's by default. */
  cwd?: string;
}

const counts = (byId: Record<string, number>) =>
  Object.entries(byId)
    .map(([id, n]) => `${id}: ${n}`)
    .join(', ') || 'none';

/** Runs one command; answers the exit code (0 done, 1 refused or failed, 2 usage / configuration). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let dataSource: DataSource | undefined;
  let database: SqlDatabase<DidTables> | undefined;
  try {
    const [group, command, ...rest] = argv;
    if (!group || group === '--help' || group === '-h' || group === 'help') {
      (group ? io.stdout : io.stderr).write(USAGE);
      return group ? 0 : 2;
    }
    if (group === 'credentials') return await runCredentials(command, rest, io);
    if (group === 'sd-jwt-issuer') return await runSdJwtIssuer(command, rest, io);
    if (group !== 'kms') throw new UsageError(`unknown group: ${group}`);
    if (command !== 'status' && command !== 'reencrypt') {
      throw new UsageError(command ? `unknown command: kms ${command}` : 'kms needs a command');
    }
    const { values } = parseArgs({
      args: rest,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const config = loadCliConfig(io.env, { cwd: io.cwd });
    const kmsKeys = resolveKmsKeys(config);
    const box = new KmsSecretBox(kmsKeys);
    dataSource = await openVeramoDataSource(cliDatabaseUrl(config), { poolSize: 1 });
    // The SD-JWT VC issuer keys are sealed with the same keys (sd-jwt-issuer/).
    database = openSqlDatabase<DidTables>(cliDatabaseUrl(config), { poolSize: 1 });
    await migrateToLatest(database, didMigrations);
    const others = [new IssuerKeyStore(database, new IssuerKeySeal(kmsKeys)).kmsTable()];

    if (command === 'status') {
      const report = await kmsKeyReport(dataSource, box, others);
      io.stdout.write(
        values.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : [
              `current key id: ${report.currentKeyId}`,
              `stored keys: ${report.total}`,
              `sealed under: ${counts(report.sealedUnder)}`,
              `to re-encrypt: ${report.toReencrypt}`,
              `unreadable: ${counts(report.unreadable)}`,
            ].join('\n') + '\n',
      );
      return Object.keys(report.unreadable).length > 0 ? 1 : 0;
    }
    const result = await reencryptKmsKeys(dataSource, box, others);
    io.stdout.write(
      values.json
        ? `${JSON.stringify(result, null, 2)}\n`
        : `re-encrypted ${result.reencrypted} of ${result.total} stored key(s) under key id ${result.currentKeyId} ` +
            `(${result.alreadyCurrent} already were, ${result.changedMeanwhile} changed meanwhile by another run)\n`,
    );
    return 0;
  } catch (err) {
    return reportCliError(err, io.stderr, USAGE);
  } finally {
    await dataSource?.destroy();
    await database?.close();
  }
}

/** `credentials revoke [<jwt> | -] [--json]`. */
async function runCredentials(
  command: string | undefined,
  rest: string[],
  io: CliIo,
): Promise<number> {
  if (command !== 'revoke') {
    throw new UsageError(
      command ? `unknown command: credentials ${command}` : 'credentials needs a command',
    );
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('credentials revoke takes one VC');
  const [given] = positionals;
  let input = given;
  if (given === undefined || given === '-') {
    if (!io.stdin) throw new UsageError('give the VC (its JWT) as an argument or on stdin');
    input = await readAll(io.stdin);
  }
  if (!input?.trim()) throw new UsageError('credentials revoke needs a VC (its JWT or JSON)');
  const config = loadCredentialsCliConfig(io.env, { cwd: io.cwd });
  const result = await revokeFromCli(config, input);
  io.stdout.write(
    values.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `revoked: index ${result.statusListIndex} of ${result.statusListCredential}\n`,
  );
  return 0;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
