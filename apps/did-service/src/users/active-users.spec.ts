import { describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import { DisabledUserError } from '../errors.js';
import { ActiveUsers } from './active-users.js';
import type { UserStatusPort } from './user-status-port.js';

function fakeStatus() {
  const state = { active: true, down: false, calls: 0 };
  const port: UserStatusPort = {
    isActive: async () => {
      state.calls += 1;
      if (state.down) throw new ServiceUnavailableError('auth-service is unavailable');
      return state.active;
    },
  };
  return { state, port };
}

describe('ActiveUsers', () => {
  it('refuses a disabled user once the cached answer is older than cacheMs', async () => {
    const { state, port } = fakeStatus();
    let now = 0;
    const users = new ActiveUsers(port, { cacheMs: 5_000, now: () => now });
    await users.assertActive('ann');
    state.active = false;
    now = 4_999;
    await users.assertActive('ann'); // still the cached answer
    expect(state.calls).toBe(1);
    now = 5_000;
    await expect(users.assertActive('ann')).rejects.toBeInstanceOf(DisabledUserError);
    await expect(users.assertActive('ann')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('uses a recent answer while auth-service is down, then answers 503 (never allows blindly)', async () => {
    const { state, port } = fakeStatus();
    let now = 0;
    const users = new ActiveUsers(port, { cacheMs: 1_000, staleMs: 60_000, now: () => now });
    await users.assertActive('ann');
    state.down = true;
    now = 30_000;
    await users.assertActive('ann');
    now = 60_000;
    await expect(users.assertActive('ann')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(users.assertActive('never-seen')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it("answers 503 for any failure of the status call, never an upstream 401 as the caller's", async () => {
    const port: UserStatusPort = {
      isActive: async () => {
        throw new UnauthorizedError('Internal API token missing or wrong');
      },
    };
    const users = new ActiveUsers(port, { cacheMs: 5_000, now: () => 0 });
    const err = await users.assertActive('ann').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as Error).message).not.toMatch(/token/i);
  });

  it('keeps at most `max` users', async () => {
    const { state, port } = fakeStatus();
    const users = new ActiveUsers(port, { cacheMs: 60_000, max: 2, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'a']) await users.assertActive(id);
    expect(state.calls).toBe(4); // 'a' was evicted by 'c'
  });
});
