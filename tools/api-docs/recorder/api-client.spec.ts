import { describe, expect, it } from '@jest/globals';
import { bodyOf } from './api-client.js';

const answer = (text: string, type = 'application/json') =>
  new Response(text, { status: 200, headers: { 'content-type': type } });

describe('bodyOf', () => {
  it('parses JSON answers (application/json, +json)', async () => {
    expect(await bodyOf(answer('{"a":1}', 'application/json; charset=utf-8'), 'x')).toEqual({
      a: 1,
    });
    expect(await bodyOf(answer('{"a":1}', 'application/vc+json'), 'x')).toEqual({ a: 1 });
  });

  it('keeps the text of other media types (a request object JWT)', async () => {
    expect(await bodyOf(answer('a.b.c', 'application/oauth-authz-req+jwt'), 'x')).toBe('a.b.c');
  });

  it('answers undefined for an empty body, and refuses JSON that does not parse', async () => {
    expect(await bodyOf(answer(''), 'x')).toBeUndefined();
    await expect(bodyOf(answer('{"id":'), 'POST /p')).rejects.toThrow(
      /POST \/p: HTTP 200 with a body that is no JSON/,
    );
  });
});
