import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { Wallet } from 'ethers';
import pg from 'pg';
import { ConfigError } from '@itp/service-kit';
import { createTestDatabase } from '@itp/testing';
import { KmsSecretBox, parseKmsKey } from '../agent/kms-keyring.js';
import { VERAMO_PG_SCHEMA } from '../agent/veramo-data-source.js';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import type { StandInAccount } from '../testing/wallet-stand-in.js';

/** Every row of every table of the service, as text. */
async function dumpDatabase(url: string): Promise<{ text: string; privateKeys: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema IN ('public', $1) AND table_type = 'BASE TABLE'`,
      [VERAMO_PG_SCHEMA],
    );
    expect(tables.rows.length).toBeGreaterThan(5);
    let text = '';
    for (const { table_schema, table_name } of tables.rows) {
      const rows = await client.query(`SELECT * FROM "${table_schema}"."${table_name}"`);
      text += `${table_schema}.${table_name} ${JSON.stringify(rows.rows)}\n`;
    }
    const keys = await client.query<{ privateKeyHex: string }>(
      `SELECT "privateKeyHex" FROM "${VERAMO_PG_SCHEMA}"."private-key"`,
    );
    return { text, privateKeys: keys.rows.map((r) => r.privateKeyHex) };
  } finally {
    await client.end();
  }
}

describe('service DIDs, keys at rest and restarts', () => {
  let h: DidHarness;
  const accounts: StandInAccount[] = [];
  beforeAll(async () => {
    h = await startDidHarness();
  });
  afterAll(() => h.close());

  it('keeps the issuer and verifier DIDs and their keys across a restart', async () => {
    const account = h.wallet.createAddress();
    accounts.push(account);
    const auth = { authorization: `Bearer ${await h.auth.tokenFor('frank')}` };
    const holder = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'frank', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did;
    const issuersBefore = (await h.get('/v2/did/issuers')).body;
    const verifiersBefore = (await h.get('/v2/did/verifiers')).body;
    const before = (
      await h.post('/v2/did/create-vc', { holder, issuer: issuersBefore[0].did }, auth)
    ).body;

    await h.restart();

    expect((await h.get('/v2/did/issuers')).body).toEqual(issuersBefore);
    expect((await h.get('/v2/did/verifiers')).body).toEqual(verifiersBefore);
    expect((await h.post('/v2/did/verify-vc', before)).body.verified).toBe(true);
    const after = await h.post('/v2/did/create-vc', { holder, issuer: issuersBefore[0].did }, auth);
    expect(after.status).toBe(200);
    expect((await h.post('/v2/did/verify-vc', after.body)).body.verified).toBe(true);
    const vp = await h.post(
      '/v2/did/create-vp',
      { holder, verifier: verifiersBefore[0].did, credentials: [before, after.body] },
      auth,
    );
    expect((await h.post('/v2/did/verify-vp', vp.body)).body.verified).toBe(true);
  });

  it('stores no private key in plain text: service keys are sealed, holder keys are not there at all', async () => {
    const { text, privateKeys } = await dumpDatabase(h.database.url);
    const serviceDids = [
      ...(await h.get('/v2/did/issuers')).body,
      ...(await h.get('/v2/did/verifiers')).body,
    ].map((e: { did: string }) => e.did);
    expect(privateKeys).toHaveLength(serviceDids.length);
    const box = new KmsSecretBox({
      current: parseKmsKey(h.config.DID_KMS_SECRET_KEY ?? ''),
      previous: [],
    });
    for (const sealed of privateKeys) {
      expect(sealed).not.toMatch(/^(0x)?[0-9a-fA-F]{64}$/);
      const opened = await box.decrypt(sealed);
      expect(opened).toMatch(/^[0-9a-f]{64}$/);
      expect(serviceDids).toContain(`did:ethr:${new Wallet(`0x${opened}`).address}`);
      expect(text).not.toContain(opened);
    }
    for (const account of accounts) {
      expect(text).not.toContain(account.privateKey.slice(2));
      expect(text).not.toContain(account.secretKey);
    }
  });

  it('creates each service DID once when several instances start together on a new database', async () => {
    const database = await createTestDatabase();
    try {
      const apps = await Promise.all(
        [1, 2, 3].map(() => h.buildWith({ DATABASE_URL: database.url })),
      );
      try {
        const dids = apps.map((app) => [...app.serviceDids.issuers, ...app.serviceDids.verifiers]);
        expect(dids[1]).toEqual(dids[0]);
        expect(dids[2]).toEqual(dids[0]);
        const { text, privateKeys } = await dumpDatabase(database.url);
        expect(privateKeys).toHaveLength(2);
        expect(text.match(/"alias":"itp-issuer"/g)).toHaveLength(1);
        expect(text.match(/"alias":"itp-verifier"/g)).toHaveLength(1);
      } finally {
        await Promise.all(apps.map((app) => app.service.close()));
      }
    } finally {
      await database.drop();
    }
  });

  it('refuses to start with another DID_KMS_SECRET_KEY than the keys were stored with', async () => {
    const other = randomBytes(32).toString('hex');
    await expect(h.buildWith({ DID_KMS_SECRET_KEY: other })).rejects.toThrow(
      /2 stored private key\(s\) of the local KMS are sealed under key id "k1", which is not among these keys/,
    );
  });

  it('never lets a holder take a service alias (holder aliases are scoped to their wallet)', async () => {
    const account = h.wallet.createAddress();
    const res = await h.post('/v2/did/create-did', {
      alias: 'grabbed',
      address: account.address,
      secretKey: account.secretKey,
    });
    expect(res.status).toBe(200);
    const app = await h.buildWith({ DID_ISSUER_ALIASES: 'grabbed' });
    try {
      expect(app.serviceDids.issuers).toEqual([
        { alias: 'grabbed', did: expect.stringMatching(/^did:ethr:0x/) },
      ]);
      expect(app.serviceDids.issuers[0]?.did).not.toBe(res.body.did);
    } finally {
      await app.service.close();
    }
  });

  it('refuses to start in production without its secrets and registry address', async () => {
    const missing = async (env: Record<string, string>, name: string) => {
      const err = await h.buildWith({ APP_ENV: 'production', ...env }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(name);
    };
    await missing({ DID_KMS_SECRET_KEY: '' }, 'DID_KMS_SECRET_KEY');
    await missing({ INTERNAL_TOKEN_DID_TO_TOKEN_RPC: '' }, 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC');
    await missing({ INTERNAL_TOKEN_DID_TO_AUTH: '' }, 'INTERNAL_TOKEN_DID_TO_AUTH');
    await missing({ INTERNAL_TOKEN_AUTH_TO_DID: '' }, 'INTERNAL_TOKEN_AUTH_TO_DID');
    await missing({ DID_REGISTRY_ADDRESS: '' }, 'DID_REGISTRY_ADDRESS');
  });
});

describe('development mode', () => {
  let h: DidHarness;
  let dataDir: string;
  beforeAll(async () => {
    h = await startDidHarness();
    dataDir = mkdtempSync(join(tmpdir(), 'did-dev-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs on SQLite with generated dev secrets (0600) and keeps its DIDs across restarts', async () => {
    const env = {
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      DID_KMS_SECRET_KEY: '',
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: '',
      INTERNAL_TOKEN_DID_TO_AUTH: '',
      INTERNAL_TOKEN_AUTH_TO_DID: '',
    };
    const first = await h.buildWith(env);
    const dids = [...first.serviceDids.issuers, ...first.serviceDids.verifiers];
    await first.service.close();
    for (const name of [
      'did-kms-secret-key',
      'internal-token-did-to-token-rpc',
      'internal-token-did-to-auth',
      'internal-token-auth-to-did',
    ]) {
      const file = join(dataDir, 'secrets', name);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    const kmsSecret = readFileSync(join(dataDir, 'secrets', 'did-kms-secret-key'), 'utf8').trim();
    expect(kmsSecret).toMatch(/^[0-9a-f]{64}$/);

    const second = await h.buildWith(env);
    expect([...second.serviceDids.issuers, ...second.serviceDids.verifiers]).toEqual(dids);
    await second.service.close();

    const file = join(dataDir, 'did-service.sqlite');
    const sqlite = new Database(file, { readonly: true });
    const rows = sqlite.prepare('SELECT privateKeyHex FROM "private-key"').all() as {
      privateKeyHex: string;
    }[];
    sqlite.close();
    expect(rows).toHaveLength(2);
    const box = new KmsSecretBox({ current: parseKmsKey(kmsSecret), previous: [] });
    const raw =
      readFileSync(file).toString('latin1') +
      readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1');
    for (const row of rows) {
      const opened = await box.decrypt(row.privateKeyHex);
      expect(opened).toMatch(/^[0-9a-f]{64}$/);
      expect(raw).not.toContain(opened);
    }
  });
});
