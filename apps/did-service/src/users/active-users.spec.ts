import { describe, expect, it } from '@jest/globals';
import { TOKEN_ENDED_MESSAGE, type VerifiedJwt } from '@itp/auth-jwt';
import { ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import { DisabledUserError } from '../errors.js';
import { ActiveUsers } from './active-users.js';
import type { UserStatusPort } from './user-status-port.js';

function fakeStatus() {
  const state = { active: true, tokensValidAfter: 0, down: false, calls: 0 };
  const port: UserStatusPort = {
    epochOf: async () => {
      state.calls += 1;
      if (state.down) throw new ServiceUnavailableError('auth-service is unavailable');
      return { active: state.active, tokensValidAfter: state.tokensValidAfter };
    },
  };
  return { state, port };
}

const jwt = (userId: string, iat: number): VerifiedJwt => ({
  userId,
  claims: { sub: userId, iat },
});

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
    await expect(users.assertTokenCurrent(jwt('ann', 10))).rejects.toBeInstanceOf(
      DisabledUserError,
    );
  });

  it('currentEpochOf asks every time (an epoch moved a moment ago counts at once), refreshes the cache and is 503 without an answer', async () => {
    const { state, port } = fakeStatus();
    let now = 0;
    const users = new ActiveUsers(port, { cacheMs: 5_000, now: () => now });
    expect(await users.epochOf('ann')).toEqual({ active: true, tokensValidAfter: 0 });
    state.tokensValidAfter = 42; // a reset, within the cache time
    now = 1;
    expect(await users.epochOf('ann')).toEqual({ active: true, tokensValidAfter: 0 });
    expect(await users.currentEpochOf('ann')).toEqual({ active: true, tokensValidAfter: 42 });
    expect(await users.epochOf('ann')).toEqual({ active: true, tokensValidAfter: 42 });
    state.down = true;
    await expect(users.currentEpochOf('ann')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('ends a JWT issued before the epoch once the cached answer is older than cacheMs, never a later one', async () => {
    const { state, port } = fakeStatus();
    let now = 0;
    const users = new ActiveUsers(port, { cacheMs: 5_000, now: () => now });
    const old = jwt('ann', 1_000);
    await users.assertTokenCurrent(old);
    state.tokensValidAfter = 1_001; // a reset: the epoch moves past the token's iat
    now = 4_999;
    await users.assertTokenCurrent(old); // the cached epoch
    now = 5_000;
    const refused = await users.assertTokenCurrent(old).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(refused).not.toBeInstanceOf(DisabledUserError);
    expect((refused as Error).message).toBe(TOKEN_ENDED_MESSAGE);
    await users.assertTokenCurrent(jwt('ann', 1_001)); // a login after the reset
    await users.assertActive('ann'); // the user itself is still active
    expect(await users.epochOf('ann')).toEqual({ active: true, tokensValidAfter: 1_001 });
  });

  it('uses a recent answer while auth-service is down, then answers 503 (never allows blindly)', async () => {
    const { state, port } = fakeStatus();
    let now = 0;
    const users = new ActiveUsers(port, { cacheMs: 1_000, staleMs: 60_000, now: () => now });
    await users.assertActive('ann');
    state.down = true;
    now = 30_000;
    await users.assertActive('ann');
    expect(await users.epochOf('ann')).toEqual({ active: true, tokensValidAfter: 0 });
    now = 60_000;
    await expect(users.assertActive('ann')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(users.epochOf('ann')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(users.assertActive('never-seen')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it("answers 503 for any failure of the status call, never an upstream 401 as the caller's", async () => {
    const port: UserStatusPort = {
      epochOf: async () => {
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
