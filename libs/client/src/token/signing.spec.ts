import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { hashKeyOf, sha256Hex, signingHash } from './signing.js';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('signing helpers', () => {
  it('sha256Hex is lower-case hex SHA-256 of the UTF-8 bytes', async () => {
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await sha256Hex('ünïcode|€')).toBe(nodeSha256('ünïcode|€'));
  });

  it('hashKey = SHA-256 of "<tempKey>|<secretKey>" (docs/api.md §4.2)', async () => {
    expect(await hashKeyOf('t'.repeat(64), 's'.repeat(64))).toBe(
      nodeSha256(`${'t'.repeat(64)}|${'s'.repeat(64)}`),
    );
  });

  it('the signData hash joins the fields, tempKey and hashKey with "|" (docs/api.md §4)', async () => {
    expect(await signingHash(['0xA', '0xB', '1000'], 'tk', 'hk')).toBe(
      nodeSha256('0xA|0xB|1000|tk|hk'),
    );
  });
});
