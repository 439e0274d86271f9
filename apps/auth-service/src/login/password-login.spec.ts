import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { pino } from 'pino';
import { ServiceUnavailableError, TooManyRequestsError, UnauthorizedError } from '@itp/errors';
import { MemoryKvStore } from '@itp/stores';
import type { JwtVerifier } from '@itp/auth-jwt';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { FailureBackoff } from '../rate-limit/failure-backoff.js';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import { KnownClients } from '../rate-limit/known-clients.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';
import type { LoginResults } from './login-results.js';
import { INVALID_CREDENTIALS, PasswordLogin } from './password-login.js';

/**
 * Same work for every failure (no timing oracle), asserted by counting the argon2id
 * verifications each failure performs — deterministic, unlike a stopwatch.
 */
class CountingHasher implements PasswordHasher {
  verifications = 0;
  constructor(private readonly inner: PasswordHasher) {}
  hash(secret: string) {
    return this.inner.hash(secret);
  }
  async verify(hash: string, secret: string) {
    this.verifications += 1;
    return this.inner.verify(hash, secret);
  }
  needsRehash(hash: string) {
    return this.inner.needsRehash(hash);
  }
  async verifyDummy(secret: string): Promise<false> {
    this.verifications += 1;
    return this.inner.verifyDummy(secret);
  }
}

interface Limits {
  perId: number;
  perIp: number;
  maxDelayMs: number;
  /** Failures per (id, client) before that pair is held for the window (default perId). */
  perIdAndIp?: number;
}

async function setup(limits: Limits = { perId: 100, perIp: 100, maxDelayMs: 30_000 }) {
  const hasher = new CountingHasher(new Argon2PasswordHasher());
  const now = Date.now();
  const user = async (id: string, password: string, enabled: boolean): Promise<User> => ({
    id,
    name: id,
    telNo: null,
    email: '',
    passwordHash: await hasher.hash(password),
    enabled,
    createdAt: now,
    updatedAt: now,
    tokensValidAfter: 0,
    keysValidAfter: 0,
  });
  const byId = new Map<string, User>([
    ['erin', await user('erin', 'erin-password', true)],
    ['frank', await user('frank', 'frank-password', false)],
  ]);
  let storeDown = false;
  let dataError: Error | undefined;
  const users = {
    findById: async (id: string) => {
      if (storeDown) throw new Error('Connection terminated unexpectedly');
      if (dataError) throw dataError;
      return byId.get(id);
    },
  } as unknown as UserRepository;
  const results = {
    resultFor: async (u: User) => ({
      token: 't',
      userId: u.id,
      name: u.name,
      telNo: null,
      email: '',
    }),
  } as unknown as LoginResults;
  const kv = new MemoryKvStore();
  const windowMs = 15 * 60_000;
  const login = new PasswordLogin({
    users,
    hasher,
    results,
    ownTokens: {} as JwtVerifier,
    failuresPerIdAndIp: new FailureCounter(kv, {
      name: 'id-ip',
      max: limits.perIdAndIp ?? limits.perId,
      windowMs,
    }),
    failuresPerId: new FailureBackoff(kv, {
      name: 'id',
      freeFailures: limits.perId,
      windowMs,
      maxDelayMs: limits.maxDelayMs,
    }),
    failuresPerIp: new FailureCounter(kv, { name: 'ip', max: limits.perIp, windowMs }),
    knownClients: new KnownClients(kv),
    logger: pino({ level: 'silent' }),
  });
  const setStoreDown = (down: boolean) => {
    storeDown = down;
  };
  const failWith = (err: Error | undefined) => {
    dataError = err;
  };
  return { login, hasher, setStoreDown, failWith, close: () => kv.close() };
}

describe('PasswordLogin', () => {
  it('does exactly one argon2id verification for a wrong password, an unknown id and a disabled user', async () => {
    const { login, hasher, close } = await setup();
    try {
      for (const [id, password] of [
        ['erin', 'wrong-password'],
        ['nobody', 'whatever'],
        ['frank', 'frank-password'],
      ] as const) {
        const before = hasher.verifications;
        const attempt = login.login({ id, password, clientIp: '127.0.0.1' });
        await expect(attempt).rejects.toBeInstanceOf(UnauthorizedError);
        await expect(attempt).rejects.toThrow(INVALID_CREDENTIALS);
        expect(hasher.verifications - before).toBe(1);
      }
      const ok = await login.login({
        id: 'erin',
        password: 'erin-password',
        clientIp: '127.0.0.1',
      });
      expect(ok.userId).toBe('erin');
    } finally {
      await close();
    }
  });
});

/** Fakes only the clock (Date), so the in-process store's TTLs move without sleeping. */
function fakeClock() {
  jest.useFakeTimers({
    now: new Date('2030-01-01T00:00:00Z'),
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
  });
  return (ms: number) => jest.setSystemTime(Date.now() + ms);
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('PasswordLogin rate limits (nobody can lock a user out)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });
  const limits = { perId: 5, perIp: 50, maxDelayMs: 30_000 };

  it('an attacker on 6 addresses (30 failures per 15 min) never keeps the owner out', async () => {
    // The review's attack: ~30 counted failures per 15 min from 6 IPv4 addresses, each hold
    // waited out, kept alice at 429 for every correct-password attempt (the per-id hold renewed).
    const advance = fakeClock();
    const { login, close } = await setup({ ...limits, perIdAndIp: 100 });
    try {
      const attackers = Array.from({ length: 6 }, (_, i) => `203.0.113.${10 + i}`);
      const owner = { id: 'erin', password: 'erin-password' };
      let failures = 0;
      let held = 0;
      for (let i = 0; failures < 30; i += 1) {
        const err = await rejection(
          login.login({ id: 'erin', password: `guess-${i}`, clientIp: attackers[i % 6]! }),
        );
        if (err instanceof TooManyRequestsError) {
          held += 1;
          advance(err.retryAfterSeconds * 1000);
        } else {
          expect(err).toBeInstanceOf(UnauthorizedError);
          failures += 1;
        }
        // The owner tries in the middle of the attack, from a client that never failed for the
        // id: never refused.
        if (i % 7 === 3) {
          await expect(
            login.login({ ...owner, clientIp: `198.51.100.${i % 200}` }),
          ).resolves.toMatchObject({ userId: 'erin' });
        }
      }
      // The attacker's own addresses are slowed: they failed for the id, so the hold applies.
      expect(held).toBeGreaterThan(0);
      const attackerAgain = await rejection(
        login.login({ id: 'erin', password: 'guess-x', clientIp: attackers[0]! }),
      );
      expect(attackerAgain).toBeInstanceOf(TooManyRequestsError);
      // The owner's own device mistyped once, yet logged in there before: not held either.
      const device = '192.0.2.77';
      await login.login({ ...owner, clientIp: device });
      for (let i = 0; i < 5; i += 1) {
        await login
          .login({ id: 'erin', password: `guess-m${i}`, clientIp: attackers[1]! })
          .catch(() => undefined);
      }
      await expect(
        login.login({ id: 'erin', password: 'typo', clientIp: device }),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(login.login({ ...owner, clientIp: device })).resolves.toMatchObject({
        userId: 'erin',
      });
    } finally {
      await close();
    }
  });

  it('holds the holds for clients that failed: 1, 2, 4, 8, 16 s, then at most LOGIN_ID_MAX_DELAY_SECONDS', async () => {
    const advance = fakeClock();
    const { login, close } = await setup({ ...limits, maxDelayMs: 20_000, perIdAndIp: 100 });
    try {
      const seen: number[] = [];
      // Before each failure: the hold the previous failures set (0 = none), for a guesser that
      // has failed for the id before (every guess from one of two addresses).
      for (let i = 0; i < 12; i += 1) {
        const guess = () =>
          rejection(login.login({ id: 'erin', password: 'nope', clientIp: `192.0.2.${i % 2}` }));
        const first = await guess();
        if (first instanceof TooManyRequestsError) {
          seen.push(first.retryAfterSeconds);
          advance(first.retryAfterSeconds * 1000);
          expect(await guess()).toBeInstanceOf(UnauthorizedError);
        } else {
          expect(first).toBeInstanceOf(UnauthorizedError);
          seen.push(0);
        }
      }
      expect(seen).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 20]);
    } finally {
      await close();
    }
  });

  it('counts IPv6 clients by their /64: rotating addresses inside it is one client', async () => {
    fakeClock();
    const { login, close } = await setup({ ...limits, perIdAndIp: 3 });
    try {
      for (let i = 1; i <= 3; i += 1) {
        await expect(
          login.login({ id: 'erin', password: `guess-${i}`, clientIp: `2001:db8:1:2::${i}` }),
        ).rejects.toBeInstanceOf(UnauthorizedError);
      }
      const rotated = await rejection(
        login.login({ id: 'erin', password: 'guess-4', clientIp: '2001:db8:1:2:ffff::99' }),
      );
      expect(rotated).toBeInstanceOf(TooManyRequestsError);
      // Another /64 is another client.
      await expect(
        login.login({ id: 'erin', password: 'erin-password', clientIp: '2001:db8:1:3::1' }),
      ).resolves.toMatchObject({ userId: 'erin' });
    } finally {
      await close();
    }
  });

  it("holds the guesser's own address for the window, and only that address", async () => {
    fakeClock();
    const { login, close } = await setup({ ...limits, maxDelayMs: 30_000 });
    try {
      const guesser = '203.0.113.66';
      for (let i = 0; i < 5; i += 1) {
        await expect(
          login.login({ id: 'erin', password: `guess-${i}`, clientIp: guesser }),
        ).rejects.toBeInstanceOf(UnauthorizedError);
      }
      const held = await rejection(
        login.login({ id: 'erin', password: 'erin-password', clientIp: guesser }),
      );
      expect(held).toBeInstanceOf(TooManyRequestsError);
      expect((held as TooManyRequestsError).retryAfterSeconds).toBe(15 * 60);
      await expect(
        login.login({ id: 'erin', password: 'erin-password', clientIp: '198.51.100.3' }),
      ).resolves.toMatchObject({ userId: 'erin' });
    } finally {
      await close();
    }
  });

  it('a failing user store is a 503 and counts nothing; the right password works when it is back', async () => {
    fakeClock();
    const { login, hasher, setStoreDown, close } = await setup(limits);
    try {
      setStoreDown(true);
      const before = hasher.verifications;
      for (let i = 0; i < 12; i += 1) {
        const err = await rejection(
          login.login({ id: 'erin', password: 'erin-password', clientIp: '198.51.100.4' }),
        );
        expect(err).toBeInstanceOf(ServiceUnavailableError);
        expect(err).not.toBeInstanceOf(UnauthorizedError);
      }
      expect(hasher.verifications).toBe(before);
      setStoreDown(false);
      await expect(
        login.login({ id: 'erin', password: 'erin-password', clientIp: '198.51.100.4' }),
      ).resolves.toMatchObject({ userId: 'erin' });
    } finally {
      await close();
    }
  });

  it('a data error of the store (not an outage) is never answered as "Login is unavailable"', async () => {
    const { login, failWith, close } = await setup();
    try {
      // What PostgreSQL answers for a NUL byte in a text parameter (SQLSTATE 22021).
      failWith(
        Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
          code: '22021',
        }),
      );
      const err = await rejection(
        login.login({ id: 'erin', password: 'erin-password', clientIp: '198.51.100.5' }),
      );
      expect(err).not.toBeInstanceOf(ServiceUnavailableError);
      expect((err as Error).message).toContain('invalid byte sequence');
    } finally {
      await close();
    }
  });
});
