import { describe, expect, it } from '@jest/globals';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';

/** The breaker against an injected clock: no call is made, each step says what happened. */
function breakerAt(options: { failureThreshold?: number; cooldownMs?: number } = {}) {
  let now = 1_000_000;
  const changes: CircuitState[] = [];
  const breaker = new CircuitBreaker({
    ...options,
    now: () => now,
    onStateChange: (state) => changes.push(state),
  });
  return {
    breaker,
    changes,
    advance: (ms: number) => {
      now += ms;
    },
    /** One admitted call that fails. */
    fail: () => {
      const admission = breaker.admit();
      if (!admission.admitted) throw new Error('expected the call to be admitted');
      breaker.failure(admission.probe);
    },
  };
}

describe('CircuitBreaker', () => {
  it('opens after 3 consecutive failures and refuses at once with the time left', () => {
    const { breaker, fail, advance, changes } = breakerAt();
    fail();
    fail();
    expect(breaker.state).toBe('closed');
    fail();
    expect(breaker.state).toBe('open');
    expect(changes).toEqual(['open']);
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterMs: 5_000, failures: 3 });
    advance(3_200);
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterMs: 1_800, failures: 3 });
  });

  it('counts only consecutive failures: an answer in between starts again', () => {
    const { breaker, fail } = breakerAt();
    fail();
    fail();
    const ok = breaker.admit();
    expect(ok).toEqual({ admitted: true, probe: false });
    breaker.success(false);
    fail();
    fail();
    expect(breaker.state).toBe('closed');
    fail();
    expect(breaker.state).toBe('open');
  });

  it('after the cooldown lets exactly one probe through; its answer closes the breaker', () => {
    const { breaker, fail, advance, changes } = breakerAt({ cooldownMs: 2_000 });
    fail();
    fail();
    fail();
    advance(1_999);
    expect(breaker.admit().admitted).toBe(false);
    advance(1);
    expect(breaker.state).toBe('halfOpen');
    const probe = breaker.admit();
    expect(probe).toEqual({ admitted: true, probe: true });
    // While the probe is under way, the others are still refused (it decides soon: 1 s).
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterMs: 1_000, failures: 3 });
    breaker.success(true);
    expect(breaker.state).toBe('closed');
    expect(breaker.admit()).toEqual({ admitted: true, probe: false });
    expect(changes).toEqual(['open', 'halfOpen', 'closed']);
  });

  it('a failed probe opens it for another full cooldown', () => {
    const { breaker, fail, advance, changes } = breakerAt({ cooldownMs: 2_000 });
    fail();
    fail();
    fail();
    advance(2_500);
    fail(); // the probe
    expect(breaker.state).toBe('open');
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterMs: 2_000, failures: 4 });
    advance(2_000);
    expect(breaker.admit()).toEqual({ admitted: true, probe: true });
    expect(changes).toEqual(['open', 'halfOpen', 'open', 'halfOpen']);
  });

  it('calls in flight when it opened do not move the end of the cooldown; their answer closes it', () => {
    const { breaker, fail, advance } = breakerAt({ cooldownMs: 2_000 });
    const inFlight = [breaker.admit(), breaker.admit()];
    fail();
    fail();
    fail();
    advance(1_000);
    breaker.failure(false); // a call made while it was closed times out now
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterMs: 1_000, failures: 4 });
    expect(inFlight[1]).toEqual({ admitted: true, probe: false });
    breaker.success(false); // another one is answered: the node works again
    expect(breaker.state).toBe('closed');
  });

  it('never opens with a threshold of 0', () => {
    const { breaker, fail } = breakerAt({ failureThreshold: 0 });
    for (let i = 0; i < 10; i += 1) fail();
    expect(breaker.state).toBe('closed');
  });
});
