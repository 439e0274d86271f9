import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '@itp/errors';
import { MemoryKvStore, RedisKvStore, type KvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import type { Client } from '../clients/client.js';
import type { User } from '../users/user.js';
import { CREDENTIAL_ENDED_MESSAGE } from '../users/account-rules.js';
import type { UserRepository } from '../users/user-repository.js';
import { LoginRequestPendingError, LoginRequestUnknownError } from '../errors.js';
import { LoginRequestStore } from './login-request-store.js';
import { LoginRequestDeclinedError, LoginRequests } from './login-requests.js';

const client = (id: string, prefixes = ['https://site.example/']): Client => ({
  id,
  name: id,
  secretHash: 'unused',
  requestIdPrefixes: prefixes,
  redirectUris: [],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  idTokenSigningAlg: 'ES256',
  enabled: true,
  createdAt: 0,
  updatedAt: 0,
});

const user = (id: string, enabled = true): User => ({
  id,
  name: id,
  telNo: null,
  email: '',
  passwordHash: 'unused',
  enabled,
  createdAt: 0,
  updatedAt: 0,
  tokensValidAfter: 0,
  keysValidAfter: 0,
});

/** Only findById is used by LoginRequests. */
const users = (...list: User[]): UserRepository => ({
  findById: async (id) => list.find((u) => u.id === id),
  insertIfAbsent: async () => false,
  list: async () => list,
  setEnabled: async () => false,
  setPasswordHash: async () => false,
  endTokens: async () => undefined,
});

const SITE = client('site');
const OTHER = client('other', ['https://other.example/', 'https://site.example/']);

function suite(name: string, makeKv: () => KvStore) {
  describe(`LoginRequests over ${name}`, () => {
    let kv: KvStore;
    let now: number;
    let requests: LoginRequests;

    beforeEach(() => {
      kv = makeKv();
      now = Date.now();
      requests = new LoginRequests(
        new LoginRequestStore(kv),
        users(user('alice'), user('disabled', false), {
          ...user('reset'),
          tokensValidAfter: 1_000,
          keysValidAfter: 1_000,
        }),
        { resultGraceMs: 30_000, clock: () => now },
      );
    });

    afterEach(() => kv.close());

    it('pending → 401, approved → result once → 400', async () => {
      const { requestId, waitTime } = await requests.create(
        SITE,
        'https://site.example/login?',
        60,
      );
      expect(waitTime).toBe(60);
      expect(requestId).toMatch(/^https:\/\/site\.example\/login\?requestId=\d{52}$/);
      await expect(requests.takeResult(SITE, requestId)).rejects.toBeInstanceOf(
        LoginRequestPendingError,
      );
      await requests.approveLoginRequest(requestId, 'alice');
      await expect(requests.takeResult(SITE, requestId)).resolves.toBe('alice');
      await expect(requests.takeResult(SITE, requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
    });

    it('hands out how the request was approved: app by default, vp for OpenID4VP', async () => {
      const byApp = await requests.openForClient(SITE, 60);
      expect(byApp.requestId).toMatch(/^https:\/\/site\.example\/requestId=\d{52}$/);
      const byWallet = await requests.openForClient(SITE, 60);
      await requests.approveLoginRequest(byApp.requestId, 'alice');
      await requests.approveLoginRequest(byWallet.requestId, 'alice', 'vp');
      await expect(requests.takeApproval(SITE, byApp.requestId)).resolves.toEqual({
        userId: 'alice',
        method: 'app',
        approvedAt: now,
      });
      await expect(requests.takeApproval(SITE, byWallet.requestId)).resolves.toEqual({
        userId: 'alice',
        method: 'vp',
        approvedAt: now,
      });
    });

    it('refuses an approval with a credential issued before the account was reset', async () => {
      const request = await requests.openForClient(SITE, 60);
      // reset's keys epoch: 1000 s; a credential of 999 s is from before it.
      await expect(
        requests.approveLoginRequest(request.requestId, 'reset', 'vp', { credentialIssuedAt: 999 }),
      ).rejects.toThrow(CREDENTIAL_ENDED_MESSAGE);
      // Still pending: a credential issued after the reset approves it.
      await requests.approveLoginRequest(request.requestId, 'reset', 'vp', {
        credentialIssuedAt: 1_000,
      });
      await expect(requests.takeResult(SITE, request.requestId)).resolves.toBe('reset');
    });

    it('refuses a site prefix the client has not registered (403)', async () => {
      await expect(requests.create(SITE, 'https://evil.example/?', 60)).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await expect(requests.create(SITE, 'https://site.example', 60)).rejects.toBeInstanceOf(
        ForbiddenError,
      );
    });

    it('hides a request from other clients (400, like an unknown one), even with the prefix', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/?', 60);
      await expect(requests.takeResult(OTHER, requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.cancel(OTHER, requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.takeResult(SITE, requestId)).rejects.toBeInstanceOf(
        LoginRequestPendingError,
      );
    });

    it('refuses unknown and malformed request ids and a changed site prefix (400)', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/a?', 60);
      const id = requestId.split('requestId=')[1]!;
      for (const bad of [
        'https://site.example/a?',
        `https://site.example/a?requestId=${'9'.repeat(52)}`,
        `https://site.example/b?requestId=${id}`,
        `${requestId}0`,
      ]) {
        await expect(requests.takeResult(SITE, bad)).rejects.toBeInstanceOf(BadRequestError);
        await expect(requests.approveLoginRequest(bad, 'alice')).rejects.toBeInstanceOf(
          BadRequestError,
        );
      }
    });

    it('cancel: pending or approved → cancelled (twice is fine); then 400 for result and approval', async () => {
      const a = await requests.create(SITE, 'https://site.example/?', 60);
      await requests.cancel(SITE, a.requestId);
      await requests.cancel(SITE, a.requestId);
      await expect(requests.takeResult(SITE, a.requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.approveLoginRequest(a.requestId, 'alice')).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      const b = await requests.create(SITE, 'https://site.example/?', 60);
      await requests.approveLoginRequest(b.requestId, 'alice');
      await requests.cancel(SITE, b.requestId);
      await expect(requests.takeResult(SITE, b.requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
    });

    it('declined (an OpenID4VP error response): the result is 400 access_denied at once, no approval after it', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/', 60);
      await requests.declineLoginRequest(requestId);
      for (let i = 0; i < 2; i += 1) {
        const refused = await requests.takeResult(SITE, requestId).catch((err: unknown) => err);
        expect(refused).toBeInstanceOf(LoginRequestDeclinedError);
        expect(refused).toBeInstanceOf(LoginRequestUnknownError);
        expect((refused as LoginRequestDeclinedError).code).toBe('access_denied');
        expect((refused as LoginRequestDeclinedError).status).toBe(400);
      }
      await expect(requests.approveLoginRequest(requestId, 'alice')).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.declineLoginRequest(requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.cancel(SITE, requestId)).resolves.toBeUndefined();
      const approved = await requests.create(SITE, 'https://site.example/', 60);
      await requests.approveLoginRequest(approved.requestId, 'alice');
      await expect(requests.declineLoginRequest(approved.requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.takeResult(SITE, approved.requestId)).resolves.toBe('alice');
    });

    it('cannot cancel a request whose result was handed out', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/?', 60);
      await requests.approveLoginRequest(requestId, 'alice');
      await requests.takeResult(SITE, requestId);
      await expect(requests.cancel(SITE, requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
    });

    it('approves only once, only pending requests, only for existing enabled users', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/?', 60);
      await expect(requests.approveLoginRequest(requestId, 'nobody')).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await expect(requests.approveLoginRequest(requestId, 'disabled')).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await requests.approveLoginRequest(requestId, 'alice');
      await expect(requests.approveLoginRequest(requestId, 'alice')).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
    });

    it('times out: no approval after waitTime, pending → 400; an approved result stays for the grace', async () => {
      const pending = await requests.create(SITE, 'https://site.example/?', 5);
      const approved = await requests.create(SITE, 'https://site.example/?', 5);
      await requests.approveLoginRequest(approved.requestId, 'alice');
      now += 5_000;
      await expect(requests.takeResult(SITE, pending.requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.approveLoginRequest(pending.requestId, 'alice')).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.cancel(SITE, pending.requestId)).rejects.toBeInstanceOf(
        LoginRequestUnknownError,
      );
      await expect(requests.takeResult(SITE, approved.requestId)).resolves.toBe('alice');
    });

    it('hands out one result to 10 concurrent polls', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/?', 60);
      await requests.approveLoginRequest(requestId, 'alice');
      const polls = await Promise.allSettled(
        Array.from({ length: 10 }, () => requests.takeResult(SITE, requestId)),
      );
      const won = polls.filter((p) => p.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const p of polls) {
        if (p.status === 'rejected') expect(p.reason).toBeInstanceOf(LoginRequestUnknownError);
      }
    });

    it('approves once among concurrent approvals', async () => {
      const { requestId } = await requests.create(SITE, 'https://site.example/?', 60);
      const approvals = await Promise.allSettled(
        Array.from({ length: 10 }, () => requests.approveLoginRequest(requestId, 'alice')),
      );
      expect(approvals.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    });
  });
}

suite('the in-process store', () => new MemoryKvStore());

const redisStores: RedisKvStore[] = [];
suite('Redis', () => {
  const store = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('lr') });
  redisStores.push(store);
  return store;
});
afterAll(() => Promise.all(redisStores.map((s) => s.close())));
