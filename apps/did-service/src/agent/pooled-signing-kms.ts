import type { IKey } from '@veramo/core';
import type { AbstractPrivateKeyStore } from '@veramo/key-manager';
import { KeyManagementSystem } from '@veramo/kms-local';
import type { Es256kSigner } from './signing-pool.js';

type SignArgs = Parameters<KeyManagementSystem['sign']>[0];

/**
 * kms-local with its ES256K signatures made by a signing pool (worker threads) instead of on the
 * event loop. Everything else — other algorithms, ES256K-R (needs the recovery id), key creation,
 * import, deletion, a missing key — is kms-local's own code, unchanged.
 */
export class PooledSigningKms extends KeyManagementSystem {
  constructor(
    private readonly privateKeys: AbstractPrivateKeyStore,
    private readonly signer: Es256kSigner,
  ) {
    super(privateKeys);
  }

  override async sign(args: SignArgs): Promise<string> {
    if (args.algorithm === undefined || args.algorithm === 'ES256K') {
      const key = await this.privateKeys
        .getKey({ alias: (args.keyRef as Pick<IKey, 'kid'>).kid })
        .catch(() => undefined);
      if (key?.type === 'Secp256k1') return this.signer.signEs256k(key.privateKeyHex, args.data);
    }
    return super.sign(args);
  }
}
