import type { SealedWalletSecrets } from './key-custody.js';

/** One wallet address as stored: its secrets only sealed. */
export interface WalletRecord extends SealedWalletSecrets {
  /** EIP-55 checksummed. */
  address: string;
  createdAt: number;
  updatedAt: number;
  /**
   * When the address was registered for a DID (internal register-did), epoch ms; null: never, and
   * then sign-jws signs nothing for it. Kept across importAddress (the DID is the address's).
   */
  didRegisteredAt: number | null;
}

/** The durable wallet (port). The SQL adapter is db/sql-wallet-repository.ts. */
export interface WalletRepository {
  /**
   * Stores a new address; an existing one gets the new secrets (importAddress: a new secretKey)
   * and keeps its createdAt and didRegisteredAt.
   */
  upsert(record: Omit<WalletRecord, 'didRegisteredAt'>): Promise<void>;
  /** Marks the address as registered for a DID (first time wins); false when it is unknown. */
  markDidRegistered(address: string, at: number): Promise<boolean>;
  find(address: string): Promise<WalletRecord | null>;
  /**
   * Removes an address createAddress stored but never handed out (its dev funding failed): only
   * while it still holds the secretKey stored then and was never registered for a DID. False
   * when no such row was there.
   */
  removeNew(address: string, secretKeySealed: string): Promise<boolean>;
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
