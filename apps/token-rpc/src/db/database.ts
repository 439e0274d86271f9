import type { SqlDatabase } from '@itp/stores';

/** The wallet: one row per address. Secrets only sealed (AES-256-GCM, see wallet/key-custody.ts). */
export interface WalletKeysTable {
  /** EIP-55 checksummed address (primary key). */
  address: string;
  private_key_sealed: string;
  mnemonic_sealed: string;
  secret_key_sealed: string;
  /** Epoch milliseconds. */
  created_at: number;
  updated_at: number;
  /** When the address was registered for a DID (register-did), epoch ms; null: never. */
  did_registered_at: number | null;
}

/** Every transaction token-rpc signs, recorded before it is sent. */
export interface TokenTransactionsTable {
  /** 0x-prefixed transaction hash (primary key). */
  hash: string;
  kind: string;
  from_address: string;
  /** Recipient or called contract; null for a deployment. */
  to_address: string | null;
  /** The deployed contract's address (createToken). */
  contract_address: string | null;
  nonce: number;
  /** Wei sent with the transaction, decimal string. */
  value: string;
  /**
   * The amount of the request (wei, token base units, createToken's initial supply), decimal
   * string; null on rows written before migration 0003 (then `value`).
   */
  amount: string | null;
  /**
   * sending → sent | failed | unknown when the broadcast is answered; then the reconciler settles
   * every one of sending / sent / unknown against the chain: mined | failed (reverted) | dropped.
   */
  status: string;
  /** The block it was mined in (mined, or failed by a revert); null otherwise. */
  block_number: number | null;
  error: string | null;
  request_id: string | null;
  /** SHA-256 (hex) of the tempKey that authorised it (migration 0004); null without one. */
  temp_key_hash?: string | null;
  /** The request's fingerprint (method, params, signature): identical retries match it. */
  request_fingerprint?: string | null;
  created_at: number;
  updated_at: number;
}

export interface TokenDatabase {
  wallet_keys: WalletKeysTable;
  token_transactions: TokenTransactionsTable;
}

export type TokenSqlDatabase = SqlDatabase<TokenDatabase>;
