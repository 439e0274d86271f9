import { exportJWK, importX509, type JWK } from 'jose';
import { parsePemBundle } from '@itp/x509';
import type { SqlDatabase } from '@itp/stores';
import type { DidTables } from '../db/did-tables.js';

/**
 * The public keys of every SD-JWT issuer key imported into this service (did_sd_jwt_issuer_keys,
 * newest import first), read from their leaf certificates: what the operator CLI's `credentials
 * revoke` checks an SD-JWT VC against (no KMS key needed: the private keys stay sealed). Every key
 * ever imported counts (the operator revokes credentials of this service, also those signed by a
 * key whose certificate has expired). The development PKI's issuer key is not stored, so SD-JWT
 * VCs it signed are revoked through revoke-vc or a reset instead.
 */
export async function importedIssuerPublicKeys(database: SqlDatabase<DidTables>): Promise<JWK[]> {
  const rows = await database.db
    .selectFrom('did_sd_jwt_issuer_keys')
    .select('chain_pem')
    .orderBy('imported_at', 'desc')
    .execute();
  const keys: JWK[] = [];
  for (const row of rows) {
    const [leaf] = parsePemBundle(row.chain_pem);
    if (!leaf) continue;
    const { kty, crv, x, y } = await exportJWK(
      await importX509(leaf.toString('pem'), 'ES256', { extractable: true }),
    );
    keys.push({ kty, crv, x, y });
  }
  return keys;
}
