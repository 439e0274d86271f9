import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { UnauthorizedError } from '@itp/errors';
import { MemoryKvStore } from '@itp/stores';
import type { JwtVerifier } from '@itp/auth-jwt';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { FailureCounter } from '../rate-limit/failure-counter.js';
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

async function setup() {
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
  });
  const byId = new Map<string, User>([
    ['erin', await user('erin', 'erin-password', true)],
    ['frank', await user('frank', 'frank-password', false)],
  ]);
  const users = { findById: async (id: string) => byId.get(id) } as unknown as UserRepository;
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
  const counter = (name: string) => new FailureCounter(kv, { name, max: 100, windowMs: 60_000 });
  const login = new PasswordLogin({
    users,
    hasher,
    results,
    ownTokens: {} as JwtVerifier,
    failuresPerId: counter('id'),
    failuresPerIp: counter('ip'),
    logger: pino({ level: 'silent' }),
  });
  return { login, hasher, close: () => kv.close() };
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
