import { describe, expect, it } from '@jest/globals';
import { HDNodeWallet } from 'ethers';
import { scanText } from './scan-text.js';
import { SecretLedger } from './secret-ledger.js';

const wallet = HDNodeWallet.createRandom();
const mnemonic = wallet.mnemonic?.phrase ?? '';

function ledger(): SecretLedger {
  const l = new SecretLedger();
  l.add('privateKey', wallet.privateKey);
  l.add('mnemonic', mnemonic);
  l.add('password', 'correct horse battery');
  return l;
}

describe('scanText', () => {
  it('finds a known private key with or without 0x, in any case, and never quotes it', () => {
    const bare = wallet.privateKey.slice(2).toUpperCase();
    const hits = scanText(`{"msg":"signing","k":"${bare}"}`, 'x.log:1', ledger());
    expect(hits.map((h) => h.kind)).toEqual(['privateKey']);
    expect(hits[0]?.excerpt).not.toContain(bare);
  });

  it('finds a known mnemonic also with other whitespace, and any 12 BIP-39 words in a row', () => {
    const split = mnemonic.split(' ').join('\n  ');
    expect(scanText(split, 'r', ledger()).map((h) => h.kind)).toContain('mnemonic');
    const other = HDNodeWallet.createRandom().mnemonic?.phrase ?? '';
    expect(scanText(`"phrase":"${other}"`, 'r', ledger()).map((h) => h.kind)).toEqual([
      'mnemonic-shaped',
    ]);
    // Eleven words, or ordinary prose, are no mnemonic.
    const eleven = other.split(' ').slice(0, 11).join(' ');
    expect(scanText(eleven, 'r', ledger())).toEqual([]);
    expect(
      scanText('request completed with status ok and the answer was sent', 'r', ledger()),
    ).toEqual([]);
  });

  it('finds JWTs and secret-named members with a clear value, not redacted ones', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlc2lnbmF0dXJlc2ln';
    expect(scanText(`authorization: Bearer ${jwt}`, 'r', ledger()).map((h) => h.kind)).toEqual([
      'jwt-shaped',
    ]);
    expect(scanText(`Bearer ${jwt}`, 'r', ledger(), { jwt: false })).toEqual([]);
    expect(scanText('{"secretKey":"[Redacted]","password":"[Redacted]"}', 'r', ledger())).toEqual(
      [],
    );
    expect(scanText('{"secretKey":"abcdef0123456789"}', 'r', ledger()).map((h) => h.kind)).toEqual([
      'key-field',
    ]);
    expect(
      scanText('login failed for correct horse battery', 'r', ledger()).map((h) => h.kind),
    ).toEqual(['password']);
  });

  it('passes transaction hashes and addresses (64 / 40 hex that are no secret of the run)', () => {
    const line = `{"tx":"0x${'ab'.repeat(32)}","from":"${wallet.address}"}`;
    expect(scanText(line, 'r', ledger())).toEqual([]);
  });
});
