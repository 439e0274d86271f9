import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { ClientAdmin } from '../clients/client-admin.js';
import { SqlClientRepository } from '../db/sql-client-repository.js';
import type { AuthDatabase } from '../db/database.js';
import { authMigrations } from '../db/migrations.js';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import { SqlUserRepository } from '../db/sql-user-repository.js';
import { UserAdmin } from '../users/user-admin.js';
import { DEMO_CLIENT, DEMO_USER, demoRequestIdPrefixes, ensureDemoData } from './demo-data.js';

describe('ensureDemoData (PostgreSQL)', () => {
  let db: TestDatabase;
  const databases: SqlDatabase<AuthDatabase>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(databases.map((d) => d.close()));
    await db?.drop();
  });

  /** One "instance": its own connection pool and admins. */
  const instance = () => {
    const database = openSqlDatabase<AuthDatabase>(db.url);
    databases.push(database);
    const hasher = new Argon2PasswordHasher();
    return {
      database,
      users: new UserAdmin({ users: new SqlUserRepository(database), hasher }),
      clients: new ClientAdmin(new SqlClientRepository(database), hasher),
      userRepo: new SqlUserRepository(database),
      clientRepo: new SqlClientRepository(database),
      hasher,
    };
  };

  it('creates the docs/api.md §1 demo user and client once, with instances starting together', async () => {
    const instances = [instance(), instance(), instance(), instance()];
    await Promise.all(instances.map((i) => migrateToLatest(i.database, authMigrations)));
    const results = await Promise.all(
      instances.map((i) => ensureDemoData(i.users, i.clients, 'http://localhost:8080')),
    );
    expect(results.filter((r) => r.userCreated)).toHaveLength(1);
    expect(results.filter((r) => r.clientCreated)).toHaveLength(1);

    const [first] = instances;
    const user = await first!.userRepo.findById('demo');
    expect(user).toMatchObject({
      id: 'demo',
      name: 'Demo User',
      email: 'demo@example.com',
      telNo: null,
      enabled: true,
    });
    expect(await first!.hasher.verify(user!.passwordHash, DEMO_USER.password)).toBe(true);
    const client = await first!.clientRepo.findById('demo-site');
    expect(client).toMatchObject({
      requestIdPrefixes: ['http://localhost:8080/', 'http://127.0.0.1:8080/'],
      redirectUris: [
        'http://localhost:8080/demo/oidc/callback',
        'http://127.0.0.1:8080/demo/oidc/callback',
      ],
      postLogoutRedirectUris: [
        'http://localhost:8080/demo/oidc',
        'http://127.0.0.1:8080/demo/oidc',
      ],
      enabled: true,
    });
    expect(await first!.hasher.verify(client!.secretHash, DEMO_CLIENT.secret)).toBe(true);
  });

  it('leaves existing rows alone on the next start, but for the redirect URIs and requestId prefixes of its port', async () => {
    const i = instance();
    await i.users.resetPassword('demo', 'changed-by-operator');
    expect(await ensureDemoData(i.users, i.clients, 'http://localhost:9090/')).toEqual({
      userCreated: false,
      clientCreated: false,
    });
    const user = await i.userRepo.findById('demo');
    expect(await i.hasher.verify(user!.passwordHash, 'changed-by-operator')).toBe(true);
    expect((await i.clientRepo.findById('demo-site'))?.redirectUris).toEqual([
      'http://localhost:9090/demo/oidc/callback',
      'http://127.0.0.1:9090/demo/oidc/callback',
    ]);
    // The demo site on PORT=9090 sends http://localhost:9090/demo?…: not a 403.
    expect((await i.clientRepo.findById('demo-site'))?.requestIdPrefixes).toEqual([
      'http://localhost:9090/',
      'http://127.0.0.1:9090/',
      'http://localhost:8080/', // the documented one stays
    ]);
  });

  it('registers PUBLIC_URL itself as well, when it is not a loopback address', () => {
    expect(demoRequestIdPrefixes('https://itp.example/')).toEqual([
      'https://itp.example/',
      'https://localhost/',
      'https://127.0.0.1/',
      'http://localhost:8080/',
    ]);
  });
});
