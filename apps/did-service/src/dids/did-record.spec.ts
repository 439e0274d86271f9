import { describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { plainAlias, scopedAlias } from './did-record.js';

describe('holder DID aliases', () => {
  const address = Wallet.createRandom().address;

  it('stores holder aliases scoped to the lower-case wallet address', () => {
    expect(scopedAlias(address, 'alice')).toBe(`${address.toLowerCase()}/alice`);
    expect(scopedAlias(address, 'alice')).not.toBe(
      scopedAlias(Wallet.createRandom().address, 'alice'),
    );
  });

  it('answers the alias as given, for scoped and for plain (pre-scoping) records', () => {
    const controllerKeyId = address;
    expect(plainAlias({ controllerKeyId, alias: scopedAlias(address, 'a/b c') })).toBe('a/b c');
    expect(plainAlias({ controllerKeyId, alias: 'legacy' })).toBe('legacy');
    // Another wallet's prefix is not stripped: it is part of this record's alias.
    const other = `${Wallet.createRandom().address.toLowerCase()}/x`;
    expect(plainAlias({ controllerKeyId, alias: other })).toBe(other);
    expect(plainAlias({ controllerKeyId: undefined, alias: 'itp-issuer' })).toBe('itp-issuer');
  });
});
