import type { TokenSqlDatabase, WalletKeysTable } from './database.js';
import { sqlCall } from './sql-errors.js';
import type { SealedWalletSecrets } from '../wallet/key-custody.js';
import type { WalletRecord, WalletRepository } from '../wallet/wallet-repository.js';

function toRecord(row: WalletKeysTable): WalletRecord {
  return {
    address: row.address,
    privateKeySealed: row.private_key_sealed,
    mnemonicSealed: row.mnemonic_sealed,
    secretKeySealed: row.secret_key_sealed,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    didRegisteredAt: row.did_registered_at === null ? null : Number(row.did_registered_at),
  };
}

/**
 * The wallet in the `wallet_keys` table (PostgreSQL or SQLite). Database failures become "503" /
 * "500" (db/sql-errors.ts).
 */
export class SqlWalletRepository implements WalletRepository {
  constructor(private readonly database: TokenSqlDatabase) {}

  upsert(record: Omit<WalletRecord, 'didRegisteredAt'>): Promise<void> {
    return sqlCall('store a wallet address', async () => {
      await this.database.db
        .insertInto('wallet_keys')
        .values({
          address: record.address,
          private_key_sealed: record.privateKeySealed,
          mnemonic_sealed: record.mnemonicSealed,
          secret_key_sealed: record.secretKeySealed,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet({
            private_key_sealed: record.privateKeySealed,
            mnemonic_sealed: record.mnemonicSealed,
            secret_key_sealed: record.secretKeySealed,
            updated_at: record.updatedAt,
          }),
        )
        .execute();
    });
  }

  markDidRegistered(address: string, at: number): Promise<boolean> {
    return sqlCall('register a DID address', async () => {
      const result = await this.database.db
        .updateTable('wallet_keys')
        .set((eb) => ({ did_registered_at: eb.fn.coalesce('did_registered_at', eb.val(at)) }))
        .where('address', '=', address)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  find(address: string): Promise<WalletRecord | null> {
    return sqlCall('find a wallet address', async () => {
      const row = await this.database.db
        .selectFrom('wallet_keys')
        .selectAll()
        .where('address', '=', address)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    });
  }

  removeNew(address: string, secretKeySealed: string): Promise<boolean> {
    return sqlCall('remove an unfunded wallet address', async () => {
      const result = await this.database.db
        .deleteFrom('wallet_keys')
        .where('address', '=', address)
        .where('secret_key_sealed', '=', secretKeySealed)
        .where('did_registered_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  replaceSealed(
    address: string,
    previous: SealedWalletSecrets,
    next: SealedWalletSecrets,
  ): Promise<boolean> {
    return sqlCall('re-seal a wallet address', async () => {
      const result = await this.database.db
        .updateTable('wallet_keys')
        .set({
          private_key_sealed: next.privateKeySealed,
          mnemonic_sealed: next.mnemonicSealed,
          secret_key_sealed: next.secretKeySealed,
        })
        .where('address', '=', address)
        .where('private_key_sealed', '=', previous.privateKeySealed)
        .where('mnemonic_sealed', '=', previous.mnemonicSealed)
        .where('secret_key_sealed', '=', previous.secretKeySealed)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }
}
