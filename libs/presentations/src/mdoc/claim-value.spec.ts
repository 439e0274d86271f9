import { DateOnly } from '@owf/mdoc';
import { claimValue } from './claim-value.js';

describe('claimValue: mdoc element values as JSON-friendly data', () => {
  it('full-date as YYYY-MM-DD, tdate as an ISO timestamp', () => {
    expect(claimValue(new DateOnly('1964-08-12'))).toBe('1964-08-12');
    expect(claimValue(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });

  it('bytes as base64url, maps as objects, inside arrays too', () => {
    expect(
      claimValue([
        new Map<unknown, unknown>([
          ['code', 'B'],
          [1, new Uint8Array([251, 255])],
        ]),
      ]),
    ).toEqual([{ code: 'B', '1': '-_8' }]);
  });

  it('big integers as numbers when safe, as strings otherwise; scalars unchanged', () => {
    expect(claimValue(42n)).toBe(42);
    expect(claimValue(2n ** 64n)).toBe('18446744073709551616');
    expect(claimValue('x')).toBe('x');
    expect(claimValue(true)).toBe(true);
  });
});
