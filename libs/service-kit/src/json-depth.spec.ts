import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { restErrorHandler } from './error-handler.js';
import pino from 'pino';
import { MAX_JSON_DEPTH, jsonBody, jsonDepthExceeds } from './json-depth.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(jsonDepthExceeds(1, 0)).toBe(false);
    expect(jsonDepthExceeds({}, 0)).toBe(true);
    expect(jsonDepthExceeds({ a: [1, { b: 'x' }] }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: [1, { b: {} }] }, 3)).toBe(true);
  });

  it('answers for 100,000 levels without overflowing its own stack', () => {
    const deep: unknown = JSON.parse(nested(100_000));
    expect(jsonDepthExceeds(deep)).toBe(true);
    expect(jsonDepthExceeds(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonDepthExceeds(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
  });
});

describe('jsonBody', () => {
  const app = express();
  app.post('/echo', jsonBody({ limit: '2mb' }), (req, res) => {
    res.json({ ok: true, keys: Object.keys(req.body as object) });
  });
  app.use(restErrorHandler(pino({ level: 'silent' })));

  const post = async (body: string) => {
    const server = app.listen(0);
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: (await res.json()) as unknown };
    } finally {
      server.close();
    }
  };

  it('answers 400 for a body nested 50,000 levels deep, and passes a normal one', async () => {
    const deep = await post(`{"vp":${nestedObject(50_000)}}`);
    expect(deep).toEqual({
      status: 400,
      body: { error: { code: '400', message: expect.stringMatching(/deeper than 64 levels/) } },
    });
    expect(await post(`{"vp":${nested(50_000)}}`)).toMatchObject({ status: 400 });
    expect(await post('{"a":{"b":[1,2,{"c":null}]}}')).toEqual({
      status: 200,
      body: { ok: true, keys: ['a'] },
    });
  });
});
