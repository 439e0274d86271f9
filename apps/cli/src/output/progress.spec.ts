import { describe, expect, it } from '@jest/globals';
import { startProgress, type Every } from './progress.js';

/** A stream that records writes, and a scheduler the test ticks by hand. */
function setup(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, write: (chunk: string) => writes.push(chunk) > 0 };
  const ticks: Array<() => void> = [];
  let cancelled = 0;
  const every: Every = (_ms, tick) => {
    ticks.push(tick);
    return () => void (cancelled += 1);
  };
  return {
    writes,
    stream,
    every,
    tick: () => ticks.forEach((t) => t()),
    cancelled: () => cancelled,
  };
}

describe('startProgress', () => {
  it('writes nothing at all when stderr is not a terminal', () => {
    const s = setup(false);
    const progress = startProgress(s.stream, 'waiting', s.every);
    s.tick();
    progress.update('still waiting');
    progress.stop();
    expect(s.writes).toEqual([]);
  });

  it('redraws one line with a spinner and the latest message, and erases it when stopped', () => {
    const s = setup(true);
    const progress = startProgress(s.stream, 'waiting for 0xabc', s.every);
    s.tick();
    progress.update('waiting for 0xabc: sent (check 2)');
    s.tick();
    progress.stop();
    expect(s.writes).toEqual([
      '\r\x1b[2K| waiting for 0xabc',
      '\r\x1b[2K/ waiting for 0xabc',
      '\r\x1b[2K- waiting for 0xabc: sent (check 2)',
      '\r\x1b[2K',
    ]);
    expect(s.cancelled()).toBe(1);
  });

  it('stops once: a second stop writes and cancels nothing', () => {
    const s = setup(true);
    const progress = startProgress(s.stream, 'x', s.every);
    progress.stop();
    progress.stop();
    expect(s.writes).toHaveLength(2);
    expect(s.cancelled()).toBe(1);
  });
});
