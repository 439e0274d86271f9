import type { JWK } from 'jose';
import type { SqlDatabase } from '@itp/stores';
import type { SealedKeyTable } from '../agent/kms-rotation.js';
import type { DidTables } from '../db/did-tables.js';
import type { IssuerKeySeal } from './issuer-key-seal.js';

/** One stored issuer key, opened. */
export interface StoredIssuerKey {
  thumbprint: string;
  privateJwk: JWK;
  /** Leaf first, base64 DER (JOSE `x5c`), no trust anchor. */
  x5c: string[];
  rootPem: string;
  importedAt: number;
  chainUpdatedAt: number;
}

/** What an import stores (the key already checked against its chain). */
export interface IssuerKeyImport {
  thumbprint: string;
  privateJwk: JWK;
  chainPem: string;
  rootPem: string;
}

const PEM_BODY = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** The base64 DER of each certificate of a PEM bundle (JOSE `x5c`). */
export function pemToX5c(pem: string): string[] {
  return [...pem.matchAll(PEM_BODY)].map((m) => (m[1] ?? '').replace(/\s+/g, ''));
}

/**
 * The SD-JWT issuer keys in SQL (did_sd_jwt_issuer_keys): private keys sealed (IssuerKeySeal),
 * chains beside them. The newest import is the current key; a key imported again becomes current
 * again with the chain given. Rows are never deleted by the service.
 */
export class IssuerKeyStore {
  constructor(
    private readonly database: SqlDatabase<DidTables>,
    private readonly seal: IssuerKeySeal,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores an imported key as the current one (its chain replaced when it was imported before). */
  async save(key: IssuerKeyImport): Promise<void> {
    const at = this.now();
    // Never older than the newest import: a clock behind on this machine still makes it current.
    const newest = await this.database.db
      .selectFrom('did_sd_jwt_issuer_keys')
      .select((eb) => eb.fn.max('imported_at').as('newest'))
      .executeTakeFirst();
    const importedAt = Math.max(at, Number(newest?.newest ?? 0) + 1);
    const row = {
      thumbprint: key.thumbprint,
      private_key: this.seal.seal(JSON.stringify(key.privateJwk), key.thumbprint),
      chain_pem: key.chainPem,
      root_pem: key.rootPem,
      imported_at: importedAt,
      chain_updated_at: at,
    };
    await this.database.db
      .insertInto('did_sd_jwt_issuer_keys')
      .values(row)
      .onConflict((oc) =>
        oc.column('thumbprint').doUpdateSet({
          private_key: row.private_key,
          chain_pem: row.chain_pem,
          root_pem: row.root_pem,
          imported_at: row.imported_at,
          chain_updated_at: row.chain_updated_at,
        }),
      )
      .execute();
  }

  /** A new chain for a stored key (certificate renewal); false when no key has that thumbprint. */
  async renewChain(
    thumbprint: string,
    chain: Pick<IssuerKeyImport, 'chainPem' | 'rootPem'>,
  ): Promise<boolean> {
    const result = await this.database.db
      .updateTable('did_sd_jwt_issuer_keys')
      .set({ chain_pem: chain.chainPem, root_pem: chain.rootPem, chain_updated_at: this.now() })
      .where('thumbprint', '=', thumbprint)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every stored key, opened, the current (newest import) first. */
  async list(): Promise<StoredIssuerKey[]> {
    const rows = await this.database.db
      .selectFrom('did_sd_jwt_issuer_keys')
      .selectAll()
      .orderBy('imported_at', 'desc')
      .execute();
    return rows.map((row) => ({
      thumbprint: row.thumbprint,
      privateJwk: JSON.parse(this.seal.open(row.private_key, row.thumbprint)) as JWK,
      x5c: pemToX5c(row.chain_pem),
      rootPem: row.root_pem,
      importedAt: Number(row.imported_at),
      chainUpdatedAt: Number(row.chain_updated_at),
    }));
  }

  /** The stored sealed values (for `kms status` / `kms reencrypt`): row id, sealed text. */
  async sealedKeys(): Promise<Array<{ id: string; sealed: string }>> {
    const rows = await this.database.db
      .selectFrom('did_sd_jwt_issuer_keys')
      .select(['thumbprint', 'private_key'])
      .execute();
    return rows.map((r) => ({ id: r.thumbprint, sealed: r.private_key }));
  }

  /** Writes `next` where the row still holds `expected` (compare-and-set); false otherwise. */
  async replaceSealed(id: string, expected: string, next: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('did_sd_jwt_issuer_keys')
      .set({ private_key: next })
      .where('thumbprint', '=', id)
      .where('private_key', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** This table for `kms status` / `kms reencrypt` (agent/kms-rotation.ts). */
  kmsTable(): SealedKeyTable {
    return {
      sealedKeys: () => this.sealedKeys(),
      open: (id, sealed) => this.seal.open(sealed, id),
      seal: (id, plain) => this.seal.seal(plain, id),
      isCurrent: (sealed) => this.seal.isCurrent(sealed),
      replaceSealed: (id, expected, next) => this.replaceSealed(id, expected, next),
    };
  }
}
