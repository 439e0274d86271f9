import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { reportCliError, UsageError, type Env } from '@itp/service-kit';
import { KmsSecretBox } from '../agent/kms-keyring.js';
import { kmsKeyReport, reencryptKmsKeys } from '../agent/kms-rotation.js';
import { openVeramoDataSource } from '../agent/veramo-data-source.js';
import { resolveKmsKeys } from '../secrets.js';
import { cliDatabaseUrl, loadCliConfig } from './cli-config.js';
import { USAGE } from './usage.js';

export interface CliIo {
  env: Env;
  stdout: Writable;
  stderr: Writable;
}

const counts = (byId: Record<string, number>) =>
  Object.entries(byId)
    .map(([id, n]) => `${id}: ${n}`)
    .join(', ') || 'none';

/** Runs one command; answers the exit code (0 done, 1 refused or failed, 2 usage / configuration). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let dataSource: DataSource | undefined;
  try {
    const [group, command, ...rest] = argv;
    if (!group || group === '--help' || group === '-h' || group === 'help') {
      (group ? io.stdout : io.stderr).write(USAGE);
      return group ? 0 : 2;
    }
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
    const config = loadCliConfig(io.env);
    const box = new KmsSecretBox(resolveKmsKeys(config));
    dataSource = await openVeramoDataSource(cliDatabaseUrl(config), { poolSize: 1 });

    if (command === 'status') {
      const report = await kmsKeyReport(dataSource, box);
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
    const result = await reencryptKmsKeys(dataSource, box);
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
  }
}
