import type { EthersLikeSigner, SiweSigner } from '../types.js';

/** A signer of either kind behind one shape: its address, and its signature of a message. */
export interface SiweAccount {
  address: string;
  sign(message: string): Promise<string>;
}

const isEthersLike = (signer: SiweSigner): signer is EthersLikeSigner =>
  typeof (signer as Partial<EthersLikeSigner>).getAddress === 'function';

/**
 * The adapter of a SiweSigner: an ethers signer (it has `getAddress`; an ethers `Wallet` also has
 * `address`, but its `signMessage` takes the message itself) or a viem account
 * (`signMessage({ message })`). Throws a TypeError for anything else.
 */
export async function siweAccountOf(signer: SiweSigner): Promise<SiweAccount> {
  if (isEthersLike(signer)) {
    return { address: await signer.getAddress(), sign: (message) => signer.signMessage(message) };
  }
  if (typeof signer?.address !== 'string' || typeof signer.signMessage !== 'function') {
    throw new TypeError(
      'not a SiweSigner: expected an ethers Signer (getAddress, signMessage) or a viem LocalAccount (address, signMessage)',
    );
  }
  return { address: signer.address, sign: (message) => signer.signMessage({ message }) };
}
