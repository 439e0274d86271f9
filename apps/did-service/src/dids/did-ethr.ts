import { getAddress } from 'ethers';

const ETHR_ADDRESS_DID = /^did:ethr:(0x[0-9a-fA-F]{40})$/;

/** `did:ethr:<EIP-55 address>`: the DID of a wallet address on the configured chain. */
export function didForAddress(address: string): string {
  return `did:ethr:${getAddress(address)}`;
}

/** The checksummed address of a `did:ethr:<address>` DID, or undefined for any other DID. */
export function addressOfDid(did: string): string | undefined {
  const match = ETHR_ADDRESS_DID.exec(did);
  if (!match?.[1]) return undefined;
  try {
    return getAddress(match[1].toLowerCase());
  } catch {
    return undefined;
  }
}

/**
 * One spelling per DID, for comparisons and lookups: `did:ethr:<address>` with the address in
 * EIP-55 form (an address is case-insensitive); every other DID unchanged.
 */
export function canonicalDid(did: string): string {
  const address = addressOfDid(did);
  return address ? `did:ethr:${address}` : did;
}
