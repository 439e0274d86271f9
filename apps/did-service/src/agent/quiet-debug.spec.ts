import { describe, expect, it, jest } from '@jest/globals';
import tty from 'node:tty';
import debug from 'debug';
import { decideDebugColoursOnce } from './quiet-debug.js';

describe('decideDebugColoursOnce', () => {
  it('makes new debug loggers skip the isatty call Veramo paid per agent call', () => {
    const isatty = jest.spyOn(tty, 'isatty');
    try {
      debug('itp:test:before');
      const before = isatty.mock.calls.length;
      expect(before).toBeGreaterThan(0); // the spy sees debug's call
      decideDebugColoursOnce();
      for (let i = 0; i < 10; i++) debug(`itp:test:${i}`);
      expect(isatty.mock.calls.length).toBe(before);
      expect((debug('itp:test:after') as unknown as { useColors: boolean }).useColors).toBe(false);
    } finally {
      isatty.mockRestore();
    }
  });

  it('keeps a colour choice made with DEBUG_COLORS', () => {
    const options = debug.inspectOpts!;
    const saved = options.colors;
    options.colors = true;
    try {
      decideDebugColoursOnce();
      expect(options.colors).toBe(true);
    } finally {
      options.colors = saved;
    }
  });
});
