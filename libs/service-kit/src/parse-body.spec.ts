import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { BadRequestError } from '@itp/errors';
import { parseBody } from './parse-body.js';

const schema = z.object({
  name: z.string().min(1),
  info: z.record(
    z.string().refine((k) => k !== 'sub', { message: 'is reserved' }),
    z.string(),
  ),
});

describe('parseBody', () => {
  it('answers the parsed body', () => {
    expect(parseBody(schema, { name: 'a', info: { x: 'y' } })).toEqual({
      name: 'a',
      info: { x: 'y' },
    });
  });

  it('refuses a missing body and names each problem by path, never the value', () => {
    expect(() => parseBody(schema, undefined)).toThrow(/JSON body .* is required/);
    let error: unknown;
    try {
      parseBody(schema, { name: 'hunter2-secret'.slice(0, 0), info: { sub: 'hunter2' } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid request body: /);
    expect(message).toContain('name: ');
    expect(message).toContain('info.sub: is reserved');
    expect(message).not.toContain('hunter2');
  });

  it('drops members the schema does not know (documented: unknown members are ignored)', () => {
    const parsed = parseBody(schema, { name: 'a', info: {}, admin: true, __proto__: { x: 1 } });
    expect(parsed).toEqual({ name: 'a', info: {} });
    expect(Object.keys(parsed)).toEqual(['name', 'info']);
  });

  it('refuses a body that is not an object, and names at most five problems', () => {
    expect(() => parseBody(schema, [])).toThrow(BadRequestError);
    expect(() => parseBody(schema, 'text')).toThrow(BadRequestError);
    const many = z.object(Object.fromEntries([...'abcdefg'].map((k) => [k, z.string()])));
    const message = (() => {
      try {
        parseBody(many, {});
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message.split('; ')).toHaveLength(5);
  });
});
