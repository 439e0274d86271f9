import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger } from '@itp/service-kit';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { buildAuthService } from '../app.js';
import {
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

describe('POST /internal/v1/users/status (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  let url: string;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({ DATABASE_URL: db.url });
    url = `${auth.internalUrl}/internal/v1/users/status`;
    bearer = { authorization: `Bearer ${auth.config.INTERNAL_TOKEN_DID_TO_AUTH!}` };
    await auth.domain.userAdmin.add({ id: 'alice', password: 'alice-password', name: 'Alice' });
    await auth.domain.userAdmin.add({ id: 'carol', password: 'carol-password', name: 'Carol' });
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it("is served on the internal listener only, to did-service's token only", async () => {
    const onPublic = await postJson(
      `${auth.url}/internal/v1/users/status`,
      { userId: 'alice' },
      bearer,
    );
    expect(onPublic.status).toBe(404);
    // The token auth-service itself sends to did-service opens nothing here.
    const own = {
      authorization: `Bearer ${auth.config.INTERNAL_TOKEN_AUTH_TO_DID!}`,
    };
    expect((await postJson(url, { userId: 'alice' }, own)).status).toBe(401);
  });

  it('answers active for an enabled user', async () => {
    const res = await postJson(url, { userId: 'alice' }, bearer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: 'alice', active: true, tokensValidAfter: 0 });
  });

  it('answers inactive as soon as the user is disabled, and active again when re-enabled (with the epoch the disable moved)', async () => {
    const disabledAt = Math.floor(Date.now() / 1000);
    await auth.domain.userAdmin.setEnabled('carol', false);
    const disabled = (await postJson(url, { userId: 'carol' }, bearer)).body as {
      tokensValidAfter: number;
    };
    expect(disabled).toEqual({
      userId: 'carol',
      active: false,
      tokensValidAfter: expect.any(Number),
    });
    expect(disabled.tokensValidAfter).toBeGreaterThan(disabledAt);
    await auth.domain.userAdmin.setEnabled('carol', true);
    expect((await postJson(url, { userId: 'carol' }, bearer)).body).toEqual({
      userId: 'carol',
      active: true,
      tokensValidAfter: disabled.tokensValidAfter,
    });
  });

  it('answers inactive for an unknown id', async () => {
    const res = await postJson(url, { userId: 'nobody' }, bearer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: 'nobody', active: false, tokensValidAfter: 0 });
  });

  it('is 401 without the internal token or with a wrong one', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer not-the-internal-token' },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    ]) {
      const res = await postJson(url, { userId: 'alice' }, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: '401', message: expect.any(String) } });
    }
  });

  it('is 400 for a body without a userId', async () => {
    const res = await postJson(url, { user: 'alice' }, bearer);
    expect(res.status).toBe(400);
  });

  it('is 503 (never a guess) when the user store fails', async () => {
    const outage = jest
      .spyOn(auth.domain.users, 'findById')
      .mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    try {
      const res = await postJson(url, { userId: 'alice' }, bearer);
      expect(res.status).toBe(503);
      expect(res.text).not.toMatch(/ECONNREFUSED/);
    } finally {
      outage.mockRestore();
    }
  });
});

describe('the internal API without an internal token', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('is refused by the configuration outside development', async () => {
    await expect(
      startAuthService({ DATABASE_URL: db.url, INTERNAL_TOKEN_DID_TO_AUTH: undefined }),
    ).rejects.toThrow(/INTERNAL_TOKEN_DID_TO_AUTH: required when APP_ENV=test/);
  });

  it('is not mounted when a config built around that check has none', async () => {
    const template = await startAuthService({ DATABASE_URL: db.url });
    await template.close();
    const { service } = await buildAuthService(
      { ...template.config, INTERNAL_TOKEN_DID_TO_AUTH: undefined },
      createLogger({ name: 'auth-service', level: 'silent' }),
    );
    const { url, internalUrl } = await service.listen();
    try {
      // No internal routes: no internal listener at all, and nothing on the public port.
      expect(internalUrl).toBeUndefined();
      const res = await postJson(`${url}/internal/v1/users/status`, { userId: 'x' });
      expect(res.status).toBe(404);
    } finally {
      await service.close();
    }
  });
});
