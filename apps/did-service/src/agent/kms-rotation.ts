import { PrivateKey } from '@veramo/data-store';
import type { DataSource } from 'typeorm';
import { ConfigError, type Logger } from '@itp/service-kit';
import { KmsKeyUnavailableError, LEGACY, sealedUnder, type KmsSecretBox } from './kms-keyring.js';

/**
 * Rotation of DID_KMS_SECRET_KEY over Veramo's `private-key` table (ADR 0016): a start-up check
 * that every stored key opens with the configured keys, and the re-encryption that moves stored
 * keys under the current key so that a previous key can be dropped. The table holds only the
 * service's own keys (holder keys stay in token-rpc), a handful of rows: reading them all is cheap.
 */

export interface KmsKeyReport {
  /** The current key's id (DID_KMS_SECRET_KEY). */
  currentKeyId: string;
  total: number;
  /** Stored keys per key id they are sealed under (`(SecretBox, no key id)`: earlier releases). */
  sealedUnder: Record<string, number>;
  /** Stored keys not sealed under the current key: what `kms reencrypt` moves. */
  toReencrypt: number;
  /** Stored keys no configured key opens, per key id they name. */
  unreadable: Record<string, number>;
}

/**
 * Stored private keys sealed with the same keys besides Veramo's `private-key` table (the SD-JWT
 * VC issuer's, sd-jwt-issuer/): counted, checked and re-sealed with them.
 */
export interface SealedKeyTable {
  /** Every stored sealed value with the id of its row. */
  sealedKeys(): Promise<Array<{ id: string; sealed: string }>>;
  /** Opens one (KmsKeyUnavailableError when no configured key does). */
  open(id: string, sealed: string): string | Promise<string>;
  /** Seals under DID_KMS_SECRET_KEY. */
  seal(id: string, plain: string): string | Promise<string>;
  isCurrent(sealed: string): boolean;
  /** Writes `next` where the row still holds `expected` (compare-and-set); false otherwise. */
  replaceSealed(id: string, expected: string, next: string): Promise<boolean>;
}

/** Veramo's `private-key` table as a SealedKeyTable. */
function veramoKeyTable(dataSource: DataSource, box: KmsSecretBox): SealedKeyTable {
  return {
    sealedKeys: async () =>
      (
        await dataSource
          .getRepository(PrivateKey)
          .find({ select: { alias: true, privateKeyHex: true } })
      ).map((row) => ({ id: row.alias, sealed: row.privateKeyHex })),
    open: (_id, sealed) => box.decrypt(sealed),
    seal: (_id, plain) => box.encrypt(plain),
    isCurrent: (sealed) => box.isCurrent(sealed),
    replaceSealed: async (id, expected, next) => {
      const update = await dataSource
        .createQueryBuilder()
        .update(PrivateKey)
        .set({ privateKeyHex: next })
        .where({ alias: id, privateKeyHex: expected })
        .execute();
      return update.affected === 1;
    },
  };
}

const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};

/**
 * Opens every stored key (so a right id with a wrong value is found too) and counts them: Veramo's
 * and those of `others`.
 */
export async function kmsKeyReport(
  dataSource: DataSource,
  box: KmsSecretBox,
  others: readonly SealedKeyTable[] = [],
): Promise<KmsKeyReport> {
  const report: KmsKeyReport = {
    currentKeyId: box.currentKeyId,
    total: 0,
    sealedUnder: {},
    toReencrypt: 0,
    unreadable: {},
  };
  for (const table of [veramoKeyTable(dataSource, box), ...others]) {
    for (const row of await table.sealedKeys()) {
      report.total += 1;
      count(report.sealedUnder, sealedUnder(row.sealed));
      if (!table.isCurrent(row.sealed)) report.toReencrypt += 1;
      try {
        await table.open(row.id, row.sealed);
      } catch (err) {
        if (!(err instanceof KmsKeyUnavailableError)) throw err;
        count(report.unreadable, err.sealedUnder);
      }
    }
  }
  return report;
}

/** The start-up error for stored keys no configured key opens (names key ids, never values). */
function unreadableIssues(report: KmsKeyReport): string[] {
  return Object.entries(report.unreadable).map(([keyId, n]) => {
    const what =
      keyId === LEGACY
        ? 'in the SecretBox format of earlier releases open with none of these keys'
        : `are sealed under key id "${keyId}", which is not among these keys or has another value there`;
    return `DID_KMS_SECRET_KEY / DID_KMS_PREVIOUS_SECRET_KEYS: ${n} stored private key(s) of the local KMS ${what}: give the key they were stored with (during a rotation in DID_KMS_PREVIOUS_SECRET_KEYS, docs/operations.md)`;
  });
}

/**
 * Start-up step: stops the start (ConfigError) when a stored key opens with none of the configured
 * keys: a missing or wrong previous key is a clear error before anything is served, never a
 * signature failure later or a key silently replaced. Logs what is still to be re-encrypted.
 */
export async function assertKmsKeysReadable(
  dataSource: DataSource,
  box: KmsSecretBox,
  logger?: Logger,
): Promise<KmsKeyReport> {
  const report = await kmsKeyReport(dataSource, box);
  const issues = unreadableIssues(report);
  if (issues.length > 0) throw new ConfigError(issues);
  if (report.toReencrypt > 0) {
    logger?.info(
      {
        currentKeyId: report.currentKeyId,
        sealedUnder: report.sealedUnder,
        toReencrypt: report.toReencrypt,
      },
      'local KMS keys not sealed under DID_KMS_SECRET_KEY: run `node dist/cli.js kms reencrypt` before dropping DID_KMS_PREVIOUS_SECRET_KEYS',
    );
  }
  return report;
}

export interface KmsReencryptResult {
  currentKeyId: string;
  total: number;
  /** Moved under the current key by this run. */
  reencrypted: number;
  /** Already under the current key. */
  alreadyCurrent: number;
  /** Changed by someone else between read and write (another run, a replica): left as they are. */
  changedMeanwhile: number;
}

/**
 * Re-seals every stored key that is not under the current key (another key id, or the SecretBox
 * format of earlier releases) under DID_KMS_SECRET_KEY: Veramo's and those of `others` (the SD-JWT
 * VC issuer keys). Idempotent (a second run moves nothing)
 * and safe while replicas run and while another run runs: each row is written with a
 * compare-and-set on the value read, so a row changed meanwhile is left alone, and both values
 * open with the configured keys. Nothing is written unless every stored key opens first.
 *
 * Run it only once every running replica has DID_KMS_SECRET_KEY among its keys (after the rollout
 * that made it current): a replica that does not know the current key cannot open what it wrote.
 */
export async function reencryptKmsKeys(
  dataSource: DataSource,
  box: KmsSecretBox,
  others: readonly SealedKeyTable[] = [],
): Promise<KmsReencryptResult> {
  const report = await kmsKeyReport(dataSource, box, others);
  const issues = unreadableIssues(report);
  if (issues.length > 0) throw new ConfigError(issues);
  const result: KmsReencryptResult = {
    currentKeyId: box.currentKeyId,
    total: 0,
    reencrypted: 0,
    alreadyCurrent: 0,
    changedMeanwhile: 0,
  };
  for (const table of [veramoKeyTable(dataSource, box), ...others]) {
    for (const row of await table.sealedKeys()) {
      result.total += 1;
      if (table.isCurrent(row.sealed)) {
        result.alreadyCurrent += 1;
        continue;
      }
      const resealed = await table.seal(row.id, await table.open(row.id, row.sealed));
      if (await table.replaceSealed(row.id, row.sealed, resealed)) result.reencrypted += 1;
      else result.changedMeanwhile += 1;
    }
  }
  return result;
}
