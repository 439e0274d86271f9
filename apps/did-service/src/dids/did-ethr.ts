import { getAddress } from 'ethers';
import { LRUCache } from 'lru-cache';

/**
 * did:ethr DIDs in both forms (ADR 0015): `did:ethr:<address>` (no network segment, the
 * interface's default: a standard resolver reads it as mainnet) and `did:ethr:<network>:<address>`
 * (DID_NETWORK set: a network name or the chain id in hex, as ethr-did-resolver names networks).
 */
const ETHR_DID = /^did:ethr:(?:([A-Za-z0-9_.-]+(?::[A-Za-z0-9_.-]+)*):)?(0x[0-9a-fA-F]{40})$/;

/** A hex chain id as ethr-did-resolver keys it: lower case, no leading zeros (`0x7a69`). */
const HEX_CHAIN_ID = /^0x[0-9a-fA-F]+$/;

/**
 * ethers' getAddress, remembered per input: EIP-55 needs a keccak-256 of the address, and one
 * create-vc canonicalises the same few DIDs about six times (a tenth of did-service's CPU under
 * create-vc load, bench/profiles/did-service-create-vc.txt). Only successes are kept; an input
 * with a wrong checksum throws every time.
 */
const checksums = new LRUCache<string, string>({ max: 10_000 });

export function checksumAddress(address: string): string {
  let checksummed = checksums.get(address);
  if (checksummed === undefined) {
    checksummed = getAddress(address);
    checksums.set(address, checksummed);
  }
  return checksummed;
}

/** The parts of a did:ethr address DID: the network segment (undefined: none) and the address. */
export interface EthrDidParts {
  network: string | undefined;
  /** EIP-55 checksummed. */
  address: string;
}

/** One spelling of a network segment: a hex chain id in lower case without leading zeros. */
export function canonicalNetwork(network: string): string {
  return HEX_CHAIN_ID.test(network) ? `0x${BigInt(network).toString(16)}` : network;
}

/**
 * `did:ethr:<EIP-55 address>`, or `did:ethr:<network>:<EIP-55 address>` when `network` is given:
 * the DID of a wallet address on the configured chain.
 */
export function didForAddress(address: string, network?: string): string {
  const prefix = network ? `did:ethr:${canonicalNetwork(network)}:` : 'did:ethr:';
  return `${prefix}${checksumAddress(address)}`;
}

/** The network segment and address of a did:ethr address DID (either form), else undefined. */
export function parseEthrDid(did: string): EthrDidParts | undefined {
  const match = ETHR_DID.exec(did);
  if (!match?.[2]) return undefined;
  try {
    return { network: match[1], address: checksumAddress(match[2].toLowerCase()) };
  } catch {
    return undefined;
  }
}

/** The checksummed address of a did:ethr address DID (either form), or undefined for any other DID. */
export function addressOfDid(did: string): string | undefined {
  return parseEthrDid(did)?.address;
}

/**
 * One spelling per DID, for comparisons and lookups: the address in EIP-55 form (an address is
 * case-insensitive) and a hex network segment in lower case; the segment itself is kept, so
 * `did:ethr:<address>` and `did:ethr:0x7a69:<address>` stay two DIDs. Every other DID unchanged.
 */
export function canonicalDid(did: string): string {
  const parts = parseEthrDid(did);
  return parts ? didForAddress(parts.address, parts.network) : did;
}
