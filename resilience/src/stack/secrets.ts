import { randomBytes } from 'node:crypto';
import { newEcSigningJwk, newInternalTokens, type InternalTokens } from '@itp/crypto';

/**
 * The production secrets of one run (APP_ENV=test is production for secrets), fresh and random:
 * the secret scan looks for every one of them in the logs and stores.
 */
export interface StackSecrets {
  /** The internal API's tokens, one per pair of services. */
  internalTokens: InternalTokens;
  walletMasterKey: string;
  /** The base64 key material of walletMasterKey (what must never appear). */
  walletMasterKeyMaterial: string;
  didKmsSecretKey: string;
  jwtSigningKeys: string;
  /** The private scalar `d` of the JWT signing key. */
  jwtSigningKeyD: string;
}

export async function makeSecrets(): Promise<StackSecrets> {
  const signing = newEcSigningJwk();
  const material = randomBytes(32).toString('base64');
  return {
    internalTokens: newInternalTokens(),
    walletMasterKey: `res1:${material}`,
    walletMasterKeyMaterial: material,
    didKmsSecretKey: randomBytes(32).toString('hex'),
    jwtSigningKeys: JSON.stringify([signing]),
    jwtSigningKeyD: String(signing.d),
  };
}
