import { describe, expect, it } from '@jest/globals';
import {
  addressOfDid,
  canonicalDid,
  checksumAddress,
  didForAddress,
  parseEthrDid,
} from './did-ethr.js';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('did:ethr helpers', () => {
  it('names an address by did:ethr:<EIP-55 address>, or with a network segment when given one', () => {
    expect(didForAddress(address.toLowerCase())).toBe(`did:ethr:${address}`);
    expect(didForAddress(address.toLowerCase(), '0x7a69')).toBe(`did:ethr:0x7a69:${address}`);
    expect(didForAddress(address, '0x007A69')).toBe(`did:ethr:0x7a69:${address}`);
    expect(didForAddress(address, 'itp-dev')).toBe(`did:ethr:itp-dev:${address}`);
  });

  it('reads the address of both forms in any letter case, nothing else', () => {
    expect(addressOfDid(`did:ethr:${address.toLowerCase()}`)).toBe(address);
    expect(addressOfDid(`did:ethr:${address.toUpperCase().replace('0X', '0x')}`)).toBe(address);
    expect(parseEthrDid(`did:ethr:sepolia:${address.toLowerCase()}`)).toEqual({
      network: 'sepolia',
      address,
    });
    expect(parseEthrDid(`did:ethr:${address}`)).toEqual({ network: undefined, address });
    expect(addressOfDid(`did:ethr:rsk:testnet:${address}`)).toBe(address);
    expect(addressOfDid(`did:ethr::${address}`)).toBeUndefined();
    expect(addressOfDid('did:key:z6Mk')).toBeUndefined();
    expect(addressOfDid(`did:ethr:${address}#controller`)).toBeUndefined();
    expect(addressOfDid(`did:ethr:0x7a69:${address}?versionId=1`)).toBeUndefined();
  });

  it('gives one spelling per DID, keeping the network segment', () => {
    expect(canonicalDid(`did:ethr:${address.toLowerCase()}`)).toBe(`did:ethr:${address}`);
    expect(canonicalDid(`did:ethr:0x7A69:${address.toLowerCase()}`)).toBe(
      `did:ethr:0x7a69:${address}`,
    );
    expect(canonicalDid(`did:ethr:0x7a69:${address}`)).not.toBe(
      canonicalDid(`did:ethr:${address}`),
    );
    expect(canonicalDid('did:web:example.com')).toBe('did:web:example.com');
  });

  it('remembers checksums but still refuses a wrong one every time', () => {
    // One letter's case flipped: a mixed-case address whose EIP-55 checksum is wrong.
    const wrong = address.replace('F6F4', 'f6F4');
    for (let i = 0; i < 2; i++) {
      expect(checksumAddress(address.toLowerCase())).toBe(address);
      expect(checksumAddress(address)).toBe(address);
      expect(() => checksumAddress(wrong)).toThrow(/checksum/);
      expect(() => didForAddress(wrong)).toThrow(/checksum/);
    }
  });
});
