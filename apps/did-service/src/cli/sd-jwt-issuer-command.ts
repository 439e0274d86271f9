import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, UsageError } from '@itp/service-kit';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import {
  currentIssuerKey,
  importIssuerKey,
  renewIssuerCertificate,
  type IssuerKeySummary,
} from '../sd-jwt-issuer/import-issuer-key.js';
import { IssuerKeySeal } from '../sd-jwt-issuer/issuer-key-seal.js';
import { IssuerKeyStore } from '../sd-jwt-issuer/issuer-key-store.js';
import { SdJwtIssuerImportError } from '../sd-jwt-issuer/sd-jwt-issuer-errors.js';
import { resolveKmsKeys } from '../secrets.js';
import { cliDatabaseUrl, loadSdJwtIssuerCliConfig } from './cli-config.js';
import type { CliIo } from './run-cli.js';
import { USAGE } from './usage.js';

const COMMANDS = ['import', 'renew-certificate', 'show'] as const;
type Command = (typeof COMMANDS)[number];

/**
 * `sd-jwt-issuer import --key <file> --chain <file> [--root <file>]`,
 * `sd-jwt-issuer renew-certificate --chain <file> [--root <file>]`, `sd-jwt-issuer show`
 * (each `[--json]`): the SD-JWT VC issuer's key and certificate chain (docs/operations.md).
 * Exit 0 done, 1 refused (the message says which check failed) or nothing imported (show).
 */
export async function runSdJwtIssuer(
  command: string | undefined,
  rest: string[],
  io: CliIo,
): Promise<number> {
  if (!COMMANDS.includes(command as Command)) {
    throw new UsageError(
      command ? `unknown command: sd-jwt-issuer ${command}` : 'sd-jwt-issuer needs a command',
    );
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      key: { type: 'string' },
      chain: { type: 'string' },
      root: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  checkOptions(command as Command, values);
  const config = loadSdJwtIssuerCliConfig(io.env, { cwd: io.cwd });
  if (!config.PUBLIC_URL) {
    throw new ConfigError([
      "PUBLIC_URL: required by sd-jwt-issuer (the issuer certificate's SAN must name its host; the did:web is made from it)",
    ]);
  }
  const publicUrl = config.PUBLIC_URL;
  const read = (option: string, path: string | undefined): string | undefined =>
    path === undefined ? undefined : readInput(option, resolve(io.cwd ?? process.cwd(), path));
  const database = openSqlDatabase<DidTables>(cliDatabaseUrl(config), { poolSize: 1 });
  try {
    await migrateToLatest(database, didMigrations);
    const store = new IssuerKeyStore(database, new IssuerKeySeal(resolveKmsKeys(config)));
    let summary: IssuerKeySummary | undefined;
    let done: string;
    if (command === 'import') {
      summary = await importIssuerKey(store, {
        keyText: read('--key', values.key) ?? '',
        chainPem: read('--chain', values.chain) ?? '',
        rootPem: read('--root', values.root),
        publicUrl,
      });
      done =
        'imported: this key is now the current SD-JWT VC issuer key (running services switch to it within a minute; a service started without any issuer key picks it up at its next start)';
    } else if (command === 'renew-certificate') {
      summary = await renewIssuerCertificate(store, {
        chainPem: read('--chain', values.chain) ?? '',
        rootPem: read('--root', values.root),
        publicUrl,
      });
      done =
        'renewed: the current key keeps its thumbprint, kid and did; running services send the new chain within a minute';
    } else {
      summary = await currentIssuerKey(store, publicUrl);
      if (!summary) {
        io.stdout.write(
          values.json
            ? `${JSON.stringify({ current: null }, null, 2)}\n`
            : 'no SD-JWT VC issuer key is imported: SD-JWT VC issuance is off outside development (in development the dev PKI issuer leaf signs)\n',
        );
        return 1;
      }
      done = 'current SD-JWT VC issuer key:';
    }
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ current: summary }, null, 2)}\n`
        : `${done}\n${describe(summary as IssuerKeySummary)}`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

function checkOptions(
  command: Command,
  values: { key?: string | undefined; chain?: string | undefined; root?: string | undefined },
): void {
  if (command === 'import' && (!values.key || !values.chain)) {
    throw new UsageError('sd-jwt-issuer import needs --key <file> and --chain <file>');
  }
  if (command === 'renew-certificate') {
    if (!values.chain) throw new UsageError('sd-jwt-issuer renew-certificate needs --chain <file>');
    if (values.key) {
      throw new UsageError(
        'sd-jwt-issuer renew-certificate keeps the current key: no --key (a new key is an import)',
      );
    }
  }
  if (command === 'show' && (values.key || values.chain || values.root)) {
    throw new UsageError('sd-jwt-issuer show takes no --key, --chain or --root');
  }
}

function readInput(option: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SdJwtIssuerImportError(`${option}: cannot read ${path} (${code})`);
  }
}

function describe(s: IssuerKeySummary): string {
  return [
    `  thumbprint:  ${s.thumbprint}`,
    `  did:         ${s.did}`,
    `  kid:         ${s.kid}`,
    `  certificate: ${s.subject} (SAN ${s.dnsNames.join(', ') || 'none'})`,
    `  valid:       ${s.notBefore} to ${s.notAfter}`,
    `  root:        ${s.root}`,
    `  imported:    ${s.importedAt} (chain given ${s.chainUpdatedAt})`,
  ]
    .join('\n')
    .concat('\n');
}
