/**
 * Waiting on an event instead of sleeping a fixed time (`waitFor`) and a clock a test moves
 * (`manualClock`). `waitFor` lives in @itp/service-kit (its own specs need it, and it sits below
 * this package); here it is re-exported so that every other spec finds both in one place. No jest
 * in the imports: a spec that needs only these imports `@itp/testing/wait-for` (the package's
 * index loads the whole test harness, about a second).
 */
export { waitFor, type WaitForOptions } from '@itp/service-kit/testing/wait-for';

/** A clock that stands still until the test moves it (what a `now: () => number` option takes). */
export interface ManualClock {
  now: () => number;
  advance(ms: number): void;
}

export function manualClock(start = Date.now()): ManualClock {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
}
