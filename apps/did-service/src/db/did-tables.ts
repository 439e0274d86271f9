import type { MigrationSet } from '@itp/stores';
import type { Kysely } from 'kysely';

/** did-service's own tables (Veramo's are managed by typeorm, see agent/veramo-data-source.ts). */
export interface DidTables {
  did_holder_bindings: {
    /** The holder DID in canonical form (did:ethr:<EIP-55 address>). */
    did: string;
    user_id: string;
    /** ISO 8601 UTC. */
    bound_at: string;
  };
  /** The issuers' status lists (W3C Bitstring Status List, purpose revocation). */
  did_status_lists: {
    /** Short random url-safe id, the last segment of the list URL. */
    id: string;
    /** The issuer DID that signs the list and the VCs pointing at it. */
    issuer: string;
    /** Number of entries (bits). */
    length: number;
    /** 1 once every index is handed out: new VCs go to another list. */
    is_full: number;
    /** Bumped by every revocation: the signed list of an older revision is stale. */
    revision: number;
    /** The signed list credential (the VC JSON with proof.jwt) of `credential_revision`. */
    credential: string | null;
    credential_revision: number | null;
    /** ISO 8601 UTC. */
    created_at: string;
  };
  /** One handed-out index of a status list: the VC that carries it. */
  did_status_entries: {
    list_id: string;
    status_index: number;
    /** The user the VC was issued to (credentialSubject.sub). */
    user_id: string;
    /** ISO 8601 UTC. */
    issued_at: string;
    /** 1 once revoked (for good). */
    revoked: number;
    revoked_at: string | null;
  };
  /**
   * Every credential issued for a user (create-vc and OpenID4VCI; docs/api.md §12): what
   * `GET /v2/did/credentials` lists, its status read from its status entry.
   */
  did_issued_credentials: {
    /** The credential's id (`vc.id` / JWT `jti`, `urn:uuid:…`). */
    id: string;
    /** The user it was issued for (credentialSubject.sub). */
    user_id: string;
    /** The holder DID (credentialSubject.id; did:ethr, did:key or did:jwk). */
    holder: string;
    /** ISO 8601 UTC: the VC's issuanceDate (JWT nbf). */
    issued_at: string;
    /** ISO 8601 UTC: the VC's expirationDate; null for a VC without expiry. */
    expires_at: string | null;
    /** How it was issued: `create-vc` or `openid4vci`. */
    via: string;
    /** Its status entry (did_status_entries). */
    status_list_id: string;
    status_index: number;
    /** Epoch ms when it was recorded: the order of the list (issued_at is whole seconds). */
    recorded_at: number;
  };
  /**
   * OpenID4VCI one-time values already used (a redeemed pre-authorized code, a spent c_nonce):
   * the rule holds when Redis restarts empty or from an older snapshot (docs/adr/0019). Rows are
   * deleted an hour after the value would be refused anyway.
   */
  did_oid4vci_uses: {
    /** SHA-256 (hex) of `<kind>:<value>`: the value itself is never stored. */
    id_hash: string;
    /** Epoch ms. */
    expires_at: number;
  };
  /**
   * The SD-JWT VC issuer's P-256 keys (contract §15), imported by the operator CLI
   * (`sd-jwt-issuer import`): the newest imported is current (sd-jwt-issuer/).
   */
  did_sd_jwt_issuer_keys: {
    /** RFC 7638 thumbprint (base64url) of the public key: the did:web verification method's fragment. */
    thumbprint: string;
    /** The private JWK, sealed with the local KMS keys (DID_KMS_SECRET_KEY; its own associated data). */
    private_key: string;
    /** The certificates sent as `x5c`, leaf first, PEM (the trust anchor not among them). */
    chain_pem: string;
    /** The chain's trust anchor (root CA), PEM: what verifiers trust. */
    root_pem: string;
    /** Epoch ms of the import: the newest is the current key. */
    imported_at: number;
    /** Epoch ms of the last chain given (import or renew-certificate). */
    chain_updated_at: number;
  };
}

export const didMigrations: MigrationSet = {
  tableName: 'did_service_migrations',
  migrations: {
    '0001_holder_bindings': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_holder_bindings')
          .addColumn('did', 'varchar(128)', (c) => c.primaryKey())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          .addColumn('bound_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('did_holder_bindings_user_id')
          .on('did_holder_bindings')
          .column('user_id')
          .execute();
      },
    },
    '0002_status_lists': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_status_lists')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('issuer', 'varchar(200)', (c) => c.notNull())
          .addColumn('length', 'integer', (c) => c.notNull())
          .addColumn('is_full', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('credential', 'text')
          .addColumn('credential_revision', 'integer')
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('did_status_lists_issuer')
          .on('did_status_lists')
          .columns(['issuer', 'is_full', 'created_at'])
          .execute();
        // The primary key is what keeps two replicas from handing out one index twice.
        await db.schema
          .createTable('did_status_entries')
          .addColumn('list_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('status_index', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('revoked_at', 'varchar(32)')
          .addPrimaryKeyConstraint('did_status_entries_pk', ['list_id', 'status_index'])
          .execute();
      },
    },
    '0003_oid4vci_uses': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_oid4vci_uses')
          .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('did_oid4vci_uses_expires_at')
          .on('did_oid4vci_uses')
          .column('expires_at')
          .execute();
      },
    },
    '0004_issued_credentials': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_issued_credentials')
          .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          // did:jwk holders are long (the key's JWK in base64url).
          .addColumn('holder', 'text', (c) => c.notNull())
          .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(32)')
          .addColumn('via', 'varchar(16)', (c) => c.notNull())
          .addColumn('status_list_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('status_index', 'integer', (c) => c.notNull())
          .addColumn('recorded_at', 'bigint', (c) => c.notNull())
          .execute();
        // GET /v2/did/credentials: a user's newest first.
        await db.schema
          .createIndex('did_issued_credentials_user_recorded')
          .on('did_issued_credentials')
          .columns(['user_id', 'recorded_at'])
          .execute();
        // A reset revokes the user's entries issued before it (revoke-credentials).
        await db.schema
          .createIndex('did_status_entries_user_issued')
          .on('did_status_entries')
          .columns(['user_id', 'issued_at'])
          .execute();
      },
    },
    '0005_sd_jwt_issuer_keys': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_sd_jwt_issuer_keys')
          .addColumn('thumbprint', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('private_key', 'text', (c) => c.notNull())
          .addColumn('chain_pem', 'text', (c) => c.notNull())
          .addColumn('root_pem', 'text', (c) => c.notNull())
          .addColumn('imported_at', 'bigint', (c) => c.notNull())
          .addColumn('chain_updated_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
  },
};
