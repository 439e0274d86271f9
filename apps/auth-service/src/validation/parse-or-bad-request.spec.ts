import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { BadRequestError } from '@itp/errors';
import { parseOrBadRequest } from './parse-or-bad-request.js';

describe('parseOrBadRequest', () => {
  const schema = z.object({ id: z.string(), password: z.string().min(3) });

  it('returns the parsed value', () => {
    expect(parseOrBadRequest(schema, { id: 'a', password: 'abc', x: 1 })).toEqual({
      id: 'a',
      password: 'abc',
    });
  });

  it('throws a 400 naming the member, without echoing the value', () => {
    let caught: unknown;
    try {
      parseOrBadRequest(schema, { id: 5, password: 'zz' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BadRequestError);
    const message = (caught as BadRequestError).message;
    expect(message).toMatch(/^id: .*; password: /);
    expect(message).not.toContain('zz');
  });

  it('names the body when it is not an object at all', () => {
    expect(() => parseOrBadRequest(schema, undefined)).toThrow(/^body: /);
  });
});
