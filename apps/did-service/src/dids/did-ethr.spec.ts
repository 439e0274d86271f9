import { describe, expect, it } from '@jest/globals';
import { addressOfDid, canonicalDid, didForAddress } from './did-ethr.js';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('did:ethr helpers', () => {
  it('names an address by did:ethr:<EIP-55 address>', () => {
    expect(didForAddress(address.toLowerCase())).toBe(`did:ethr:${address}`);
  });

  it('reads the address of did:ethr:<address> in any letter case, nothing else', () => {
    expect(addressOfDid(`did:ethr:${address.toLowerCase()}`)).toBe(address);
    expect(addressOfDid(`did:ethr:${address.toUpperCase().replace('0X', '0x')}`)).toBe(address);
    expect(addressOfDid(`did:ethr:sepolia:${address}`)).toBeUndefined();
    expect(addressOfDid('did:key:z6Mk')).toBeUndefined();
    expect(addressOfDid(`did:ethr:${address}#controller`)).toBeUndefined();
  });

  it('gives one spelling per DID', () => {
    expect(canonicalDid(`did:ethr:${address.toLowerCase()}`)).toBe(`did:ethr:${address}`);
    expect(canonicalDid('did:web:example.com')).toBe('did:web:example.com');
  });
});
