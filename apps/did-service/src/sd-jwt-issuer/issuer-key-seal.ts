import { DecryptionError, Keyring } from '@itp/crypto';
import {
  KmsKeyUnavailableError,
  kmsKeyIssues,
  sealedUnder,
  type KmsKeys,
} from '../agent/kms-keyring.js';

/**
 * Associated data of a sealed SD-JWT issuer key, with the key's thumbprint (its row): a value
 * sealed for another purpose (a Veramo key, a wallet key) or copied into another row never opens.
 */
const associatedData = (thumbprint: string) => `did-service/sd-jwt-issuer-key:${thumbprint}`;

/**
 * The SD-JWT issuer's private keys at rest: sealed with the local KMS's keys (DID_KMS_SECRET_KEY
 * seals, DID_KMS_PREVIOUS_SECRET_KEYS still open; @itp/crypto Keyring, AES-256-GCM), so a
 * DID_KMS_SECRET_KEY rotation and `kms reencrypt` cover them like the Veramo keys.
 */
export class IssuerKeySeal {
  private readonly keyring: Keyring;

  constructor(readonly keys: KmsKeys) {
    const issues = kmsKeyIssues(keys);
    if (issues.length > 0) throw new Error(issues.join('; '));
    this.keyring = new Keyring(keys.current, keys.previous);
  }

  get currentKeyId(): string {
    return this.keys.current.id;
  }

  /** Seals the private JWK (JSON) of the key whose thumbprint is `thumbprint`. */
  seal(plain: string, thumbprint: string): string {
    return this.keyring.seal(plain, associatedData(thumbprint));
  }

  /** Throws KmsKeyUnavailableError (naming the key id, never a value) when no key opens it. */
  open(sealed: string, thumbprint: string): string {
    try {
      return this.keyring.open(sealed, associatedData(thumbprint));
    } catch (err) {
      if (err instanceof DecryptionError || !sealed.startsWith('v1.')) {
        throw new KmsKeyUnavailableError(sealedUnder(sealed));
      }
      throw err;
    }
  }

  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v1.${this.keys.current.id}.`);
  }
}
