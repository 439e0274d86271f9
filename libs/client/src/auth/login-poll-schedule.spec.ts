import { describe, expect, it } from '@jest/globals';
import { LoginPollSchedule } from './login-poll-schedule.js';

describe('LoginPollSchedule', () => {
  it('polls at the documented interval (1000 ms) while pending', () => {
    const schedule = new LoginPollSchedule();
    expect([schedule.afterPending(), schedule.afterPending()]).toEqual([1000, 1000]);
  });

  it('grows the interval by 5 s on each slow_down, for every later poll too', () => {
    const schedule = new LoginPollSchedule({ intervalMs: 1000 });
    expect(schedule.afterSlowDown()).toBe(6000);
    expect(schedule.afterPending()).toBe(6000);
    expect(schedule.afterSlowDown()).toBe(11_000);
    expect(schedule.intervalMs).toBe(11_000);
  });

  it('never waits less than the Retry-After of a slow_down', () => {
    const schedule = new LoginPollSchedule({ intervalMs: 500, slowDownStepMs: 100 });
    expect(schedule.afterSlowDown(3)).toBe(3000);
    expect(schedule.afterSlowDown(1)).toBe(3100);
    expect(schedule.afterSlowDown(0)).toBe(3200);
  });
});
