import type { SealedWalletSecrets } from './key-custody.js';

/** One wallet address as stored: its secrets only sealed. */
export interface WalletRecord extends SealedWalletSecrets {
  /** EIP-55 checksummed. */
  address: string;
  createdAt: number;
  updatedAt: number;
}

/** The durable wallet (port). The SQL adapter is sql-wallet-repository.ts. */
export interface WalletRepository {
  /** Stores a new address; an existing one is replaced (importAddress: a new secretKey). */
  upsert(record: WalletRecord): Promise<void>;
  find(address: string): Promise<WalletRecord | null>;
  /**
   * Re-sealed secrets after a master key rotation: replaces `previous` by `next` only while the
   * row still holds `previous` (an importAddress meanwhile wins).
   */
  replaceSealed(
    address: string,
    previous: SealedWalletSecrets,
    next: SealedWalletSecrets,
  ): Promise<boolean>;
}
