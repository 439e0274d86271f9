import { describe, expect, it } from '@jest/globals';
import { MemoryKvStore } from '@itp/stores';
import type { Client } from '../clients/client.js';
import { LoginRequestPendingError } from '../errors.js';
import { attemptLogin } from '../login/attempt-login.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';
import { ApprovedRequestLogin } from './approved-request-login.js';
import { LoginRequestStore } from './login-request-store.js';
import { LoginRequests } from './login-requests.js';

const SITE: Client = {
  id: 'site',
  name: 'site',
  secretHash: 'unused',
  requestIdPrefixes: ['https://site.example/'],
  redirectUris: [],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  idTokenSigningAlg: 'ES256',
  enabled: true,
  createdAt: 0,
  updatedAt: 0,
};

const alice: User = {
  id: 'alice',
  name: 'Alice',
  telNo: null,
  email: '',
  passwordHash: 'unused',
  enabled: true,
  createdAt: 0,
  updatedAt: 0,
  tokensValidAfter: 0,
  keysValidAfter: 0,
};

describe('ApprovedRequestLogin: a collected web-site login request as a login method', () => {
  it("authenticates the approving user with the approval's amr and time, once", async () => {
    const now = 1_700_000_000_000;
    const users = { findById: async (id: string) => (id === 'alice' ? alice : undefined) };
    const requests = new LoginRequests(
      new LoginRequestStore(new MemoryKvStore()),
      users as unknown as UserRepository,
      { resultGraceMs: 60_000, clock: () => now },
    );
    const method = new ApprovedRequestLogin(requests);
    expect(await method.failureLimits()).toEqual([]);

    const { requestId } = await requests.create(SITE, 'https://site.example/', 60);
    await expect(attemptLogin(method, { client: SITE, requestId })).rejects.toBeInstanceOf(
      LoginRequestPendingError,
    );
    await requests.approveLoginRequest(requestId, 'alice', 'vp');
    await expect(attemptLogin(method, { client: SITE, requestId })).resolves.toEqual({
      userId: 'alice',
      amr: 'vp',
      evidence: { approvedAt: now },
    });
    await expect(attemptLogin(method, { client: SITE, requestId })).rejects.toThrow(
      'Login request was never made',
    );
  });
});
