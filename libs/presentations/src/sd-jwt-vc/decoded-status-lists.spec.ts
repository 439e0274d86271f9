import { StatusList, createHeaderAndPayload } from '@sd-jwt/jwt-status-list';
import { DecodedStatusLists, decodeStatusList, statusAt } from './decoded-status-lists.js';

const URI = 'https://issuer.example/status-lists/1';

/** An unsigned token (only the payload is read here) and its payload, made by the library. */
function tokenOf(
  statuses: number[],
  bits: 1 | 2 | 4 | 8,
  iat = 1,
): [string, Record<string, unknown>] {
  const { header, payload } = createHeaderAndPayload(
    new StatusList(statuses, bits),
    { sub: URI, iat },
    { alg: 'ES256', typ: 'statuslist+jwt' },
  );
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return [`${part(header)}.${part(payload)}.sig`, payload as unknown as Record<string, unknown>];
}

describe('decodeStatusList / statusAt', () => {
  it.each([1, 2, 4, 8] as const)(
    'reads every status as @sd-jwt/jwt-status-list does (%i bits)',
    (bits) => {
      let seed = 7;
      const statuses = Array.from({ length: 1024 }, () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % 2 ** bits;
      });
      const [token, payload] = tokenOf(statuses, bits);
      const decoded = decodeStatusList(token, payload);
      const library = StatusList.decompressStatusList(
        (payload.status_list as { lst: string }).lst,
        bits,
      );
      for (let index = 0; index < statuses.length; index += 1) {
        expect(statusAt(decoded, index)).toBe(library.getStatus(index));
        expect(statusAt(decoded, index)).toBe(statuses[index]);
      }
    },
  );

  it('refuses an index outside the list, other bits, and an lst that is not a zlib stream', () => {
    const [token, payload] = tokenOf([0, 1, 0, 0, 0, 0, 0, 0], 1);
    const decoded = decodeStatusList(token, payload);
    expect(() => statusAt(decoded, 8)).toThrow(/outside the list/);
    expect(() => statusAt(decoded, -1)).toThrow(/outside the list/);
    expect(() => decodeStatusList(token, { status_list: { bits: 3, lst: 'eJw' } })).toThrow(/bits/);
    expect(() => decodeStatusList(token, { status_list: { bits: 1, lst: 'AAAA' } })).toThrow();
    expect(() => decodeStatusList(token, {})).toThrow(/bits/);
  });
});

describe('DecodedStatusLists', () => {
  it('decodes a token once, and a new token of the same list (a revocation) at once', () => {
    const lists = new DecodedStatusLists();
    const [valid, validPayload] = tokenOf([0, 0, 0, 0, 0, 0, 0, 0], 1, 1);
    const [revoked, revokedPayload] = tokenOf([0, 0, 0, 1, 0, 0, 0, 0], 1, 2);
    expect(lists.statusOf(URI, valid, validPayload, 3)).toBe(0);
    expect(lists.statusOf(URI, valid, validPayload, 3)).toBe(0);
    expect(lists.decodings).toBe(1);
    expect(lists.statusOf(URI, revoked, revokedPayload, 3)).toBe(1);
    expect(lists.decodings).toBe(2);
  });

  it('keeps at most maxLists lists, the least recently used dropped', () => {
    const lists = new DecodedStatusLists(2);
    const [token, payload] = tokenOf([0, 1, 0, 0, 0, 0, 0, 0], 1);
    for (const uri of ['a', 'b', 'a', 'c', 'a']) lists.statusOf(uri, token, payload, 1);
    expect(lists.decodings).toBe(3); // a, b, c; a kept as the most recently used
    lists.statusOf('b', token, payload, 1);
    expect(lists.decodings).toBe(4);
  });
});
