import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { explainRequestId } from './run-faults.js';

describe('explainRequestId', () => {
  const id = 'b8fae5f4-6087-4224-906b-543ef5e0311b';
  const dir = mkdtempSync(join(tmpdir(), 'explain-'));
  const log = join(dir, 'token-rpc.log');
  writeFileSync(
    log,
    [
      JSON.stringify({ level: 30, service: 'token-rpc', req: { id }, msg: 'request' }),
      'not json',
      JSON.stringify({
        level: 50,
        service: 'token-rpc',
        req: { id },
        err: { type: 'InternalError', stack: 'InternalError: database is closed\n    at x' },
      }),
      JSON.stringify({ level: 50, service: 'token-rpc', req: { id: 'other' }, msg: 'no' }),
    ].join('\n'),
  );

  it('appends the error lines the services logged for the answer’s request id', () => {
    const text = explainRequestId(`{"resultMessage":"Internal error (request id ${id})"}`, [
      log,
      join(dir, 'missing.log'),
    ]);
    expect(text).toContain('token-rpc: InternalError InternalError: database is closed');
    expect(text).not.toContain('no');
  });

  it('says so when no error line has the id, and adds nothing to answers without one', () => {
    expect(
      explainRequestId('Internal error (request id 00000000-0000-0000-0000-000000000000)', [log]),
    ).toBe(' ← log: no error line for this id');
    expect(explainRequestId('HTTP 502', [log])).toBe('');
  });
});
