import type { Keyring } from '@itp/crypto';

/** The secrets of one wallet address, in plain text (only in memory, only while needed). */
export interface WalletSecrets {
  privateKey: string;
  mnemonic: string;
  secretKey: string;
}

export interface SealedWalletSecrets {
  privateKeySealed: string;
  mnemonicSealed: string;
  secretKeySealed: string;
}

type Field = 'privateKey' | 'mnemonic' | 'secretKey';

/**
 * Key custody (docs/adr/0005-key-custody.md): every secret of a wallet address is sealed with
 * the Keyring (AES-256-GCM under WALLET_MASTER_KEY) with associated data `<address>|<field>`, so
 * that a sealed value cannot be moved to another address or another column without failing to
 * open.
 */
export class KeyCustody {
  constructor(private readonly keyring: Keyring) {}

  seal(address: string, secrets: WalletSecrets): SealedWalletSecrets {
    return {
      privateKeySealed: this.keyring.seal(secrets.privateKey, ad(address, 'privateKey')),
      mnemonicSealed: this.keyring.seal(secrets.mnemonic, ad(address, 'mnemonic')),
      secretKeySealed: this.keyring.seal(secrets.secretKey, ad(address, 'secretKey')),
    };
  }

  openPrivateKey(address: string, sealed: Pick<SealedWalletSecrets, 'privateKeySealed'>): string {
    return this.keyring.open(sealed.privateKeySealed, ad(address, 'privateKey'));
  }

  openSecretKey(address: string, sealed: Pick<SealedWalletSecrets, 'secretKeySealed'>): string {
    return this.keyring.open(sealed.secretKeySealed, ad(address, 'secretKey'));
  }

  open(address: string, sealed: SealedWalletSecrets): WalletSecrets {
    return {
      privateKey: this.openPrivateKey(address, sealed),
      mnemonic: this.keyring.open(sealed.mnemonicSealed, ad(address, 'mnemonic')),
      secretKey: this.openSecretKey(address, sealed),
    };
  }

  /** True when any field was sealed under a previous master key (re-seal it). */
  needsRotation(sealed: SealedWalletSecrets): boolean {
    return (
      this.keyring.needsRotation(sealed.privateKeySealed) ||
      this.keyring.needsRotation(sealed.mnemonicSealed) ||
      this.keyring.needsRotation(sealed.secretKeySealed)
    );
  }
}

function ad(address: string, field: Field): string {
  return `${address}|${field}`;
}
