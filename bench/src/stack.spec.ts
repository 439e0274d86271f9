import { describe, expect, it } from '@jest/globals';
import { memoryOf } from './stack.js';

describe('memory of the stack’s processes', () => {
  it('reads RSS and PSS of a live process from /proc; PSS never exceeds RSS', () => {
    const { self } = memoryOf({ self: process.pid });
    expect(self!.rss).toBeGreaterThan(10);
    expect(self!.pss).toBeGreaterThan(0);
    expect(self!.pss).toBeLessThanOrEqual(self!.rss);
  });

  it('leaves out a process that has gone', () => {
    expect(memoryOf({ gone: 2 ** 22 + 1 })).toEqual({});
  });
});
