import { describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { answerHeaders } from './forward.js';

/** undici's raw header list: name/value Buffers, in the order the upstream sent them. */
const raw = (...pairs: Array<[string, string]>): Buffer[] =>
  pairs.flatMap(([name, value]) => [Buffer.from(name, 'latin1'), Buffer.from(value, 'latin1')]);

/** A response on which the gateway has set `Vary: Origin` (corsActualHeaders). */
const withVary = (vary?: string) =>
  ({ getHeader: (name: string) => (name === 'vary' ? vary : undefined) }) as ServerResponse;

describe('answerHeaders: the upstream answer headers the gateway passes on', () => {
  it('drops hop-by-hop headers, x-powered-by, the upstream request id and CORS headers', () => {
    const out = answerHeaders(
      raw(
        ['Content-Type', 'application/json'],
        ['Content-Length', '12'],
        ['Connection', 'keep-alive'],
        ['Keep-Alive', 'timeout=65'],
        ['Transfer-Encoding', 'chunked'],
        ['X-Powered-By', 'Express'],
        ['X-Request-Id', 'upstream-id'],
        ['Access-Control-Allow-Origin', '*'],
        ['ETag', 'W/"1"'],
      ),
      withVary('Origin'),
    );
    expect(out).toEqual({
      'content-type': 'application/json',
      'content-length': '12',
      etag: 'W/"1"',
    });
  });

  it('keeps repeated headers as a list (Set-Cookie)', () => {
    const out = answerHeaders(
      raw(['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['Set-Cookie', 'c=3']),
      withVary('Origin'),
    );
    expect(out['set-cookie']).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it("merges the upstream's Vary with the gateway's own", () => {
    const out = answerHeaders(
      raw(['Vary', 'Accept-Encoding'], ['Vary', 'origin, Accept']),
      withVary('Origin'),
    );
    expect(out.vary).toBe('Origin, Accept-Encoding, Accept');
    expect(answerHeaders(raw(['Vary', '*']), withVary('Origin')).vary).toBe('*');
  });

  it("leaves the gateway's Vary as set when the upstream sends none", () => {
    expect(answerHeaders(raw(['Content-Type', 'text/plain']), withVary('Origin'))).toEqual({
      'content-type': 'text/plain',
    });
  });
});
