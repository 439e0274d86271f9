import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { ResourceScope } from './resource-scope.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: 'error' }, stream), lines };
}

describe('ResourceScope', () => {
  it('closes what was opened, newest first, and only once', async () => {
    const closed: string[] = [];
    const scope = new ResourceScope();
    const db = await scope.open(
      'db',
      () => ({ name: 'db' }),
      (r) => closed.push(r.name),
    );
    await scope.open(
      'kv',
      async () => 'kv',
      (r) => closed.push(r),
    );
    scope.onClose('timer', () => closed.push('timer'));
    expect(db).toEqual({ name: 'db' });
    await Promise.all([scope.closeAll(), scope.closeAll()]);
    expect(closed).toEqual(['timer', 'kv', 'db']);
  });

  it('runs every close even when one throws, and logs the failure', async () => {
    const { logger, lines } = capture();
    const closed: string[] = [];
    const scope = new ResourceScope(logger);
    await scope.open(
      'db',
      () => 'db',
      () => closed.push('db'),
    );
    await scope.open(
      'kv',
      () => 'kv',
      () => {
        throw new Error('kv close failed');
      },
    );
    await scope.open(
      'chain',
      () => 'chain',
      async () => {
        throw new Error('chain close failed');
      },
    );
    await expect(scope.closeAll()).resolves.toBeUndefined();
    expect(closed).toEqual(['db']);
    expect(lines.join('')).toMatch(/"resource":"chain"/);
    expect(lines.join('')).toMatch(/"resource":"kv"/);
  });

  it('registers nothing for a resource that failed to open', async () => {
    const closed: string[] = [];
    const scope = new ResourceScope();
    await expect(
      scope.open(
        'db',
        () => Promise.reject(new Error('no database')),
        () => closed.push('db'),
      ),
    ).rejects.toThrow('no database');
    await scope.closeAll();
    expect(closed).toEqual([]);
    await expect(
      scope.open(
        'late',
        () => 1,
        () => undefined,
      ),
    ).rejects.toThrow(/closing/);
  });
});
