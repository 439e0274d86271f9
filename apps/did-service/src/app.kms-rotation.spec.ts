import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretBox } from '@veramo/kms-local';
import pg from 'pg';
import { ConfigError } from '@itp/service-kit';
import { KmsSecretBox, parseKmsKey } from './agent/kms-keyring.js';
import { VERAMO_PG_SCHEMA } from './agent/veramo-data-source.js';
import { startDidHarness, type DidHarness } from './testing/did-harness.js';
import { runCliCaptured } from './testing/run-cli-captured.js';

// Rotating DID_KMS_SECRET_KEY with rolling updates (docs/operations.md, ADR 0016), on the real
// PostgreSQL: keys stored by an earlier release (Veramo's SecretBox, no key id) under OLD keep
// signing after the switch to NEW with OLD as a previous key; `kms reencrypt` moves them under
// NEW (idempotent, concurrent runs safe); then OLD can be dropped. A missing or wrong key stops
// the start with a clear error and changes nothing.
const OLD = randomBytes(32).toString('hex'); // the format of earlier releases: id k1
const NEW = `k2:${randomBytes(32).toString('base64')}`;

const table = `"${VERAMO_PG_SCHEMA}"."private-key"`;

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function storedKeys(url: string): Promise<Record<string, string>> {
  return withPg(url, async (client) => {
    const rows = await client.query<{ alias: string; privateKeyHex: string }>(
      `SELECT alias, "privateKeyHex" FROM ${table} ORDER BY alias`,
    );
    return Object.fromEntries(rows.rows.map((r) => [r.alias, r.privateKeyHex]));
  });
}

const cli = (args: string[], env: Record<string, string>) => runCliCaptured(args, env);

describe('DID_KMS_SECRET_KEY rotation', () => {
  let h: DidHarness;
  let holder: string;
  let auth: Record<string, string>;
  let issuer: string;
  let vcBefore: unknown;
  const dids = () => h.get('/v2/did/issuers').then((r) => r.body as { did: string }[]);
  const env = (changes: Record<string, string>) => ({ DATABASE_URL: h.database.url, ...changes });

  /** create-vc (signed with the issuer key of the local KMS) through a listening instance, verified. */
  async function issueThrough(url: string): Promise<void> {
    const res = await fetch(`${url}/v2/did/create-vc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ holder, issuer }),
    });
    expect(res.status).toBe(200);
    expect((await h.post('/v2/did/verify-vc', await res.json())).body.verified).toBe(true);
  }

  beforeAll(async () => {
    h = await startDidHarness({ DID_KMS_SECRET_KEY: OLD });
    auth = { authorization: `Bearer ${await h.auth.tokenFor('rita')}` };
    const account = h.wallet.createAddress();
    holder = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'rita', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did;
    issuer = (await dids())[0]!.did;
    // What an earlier release stored: Veramo's SecretBox under OLD, no key id.
    const current = new KmsSecretBox({ current: parseKmsKey(OLD), previous: [] });
    const legacy = new SecretBox(OLD);
    await withPg(h.database.url, async (client) => {
      for (const [alias, sealed] of Object.entries(await storedKeys(h.database.url))) {
        const rewritten = await legacy.encrypt(await current.decrypt(sealed));
        await client.query(`UPDATE ${table} SET "privateKeyHex" = $1 WHERE alias = $2`, [
          rewritten,
          alias,
        ]);
      }
    });
    await h.restart();
    vcBefore = (await h.post('/v2/did/create-vc', { holder, issuer }, auth)).body;
  });
  afterAll(() => h.close());

  it('reads the keys an earlier release stored (SecretBox under the current key)', async () => {
    expect(Object.values(await storedKeys(h.database.url))).toEqual([
      expect.stringMatching(/^[0-9a-f]+$/),
      expect.stringMatching(/^[0-9a-f]+$/),
    ]);
    expect((await h.post('/v2/did/verify-vc', vcBefore)).body.verified).toBe(true);
  });

  it('refuses to start on a new key without the old one, or with a wrong old one, changing nothing', async () => {
    const before = await storedKeys(h.database.url);
    for (const changes of [
      { DID_KMS_SECRET_KEY: NEW },
      { DID_KMS_SECRET_KEY: NEW, DID_KMS_PREVIOUS_SECRET_KEYS: randomBytes(32).toString('hex') },
    ]) {
      const err = await h.buildWith(changes).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(
        /DID_KMS_PREVIOUS_SECRET_KEYS: 2 stored private key\(s\) of the local KMS in the SecretBox format of earlier releases open with none of these keys/,
      );
      expect((err as Error).message).not.toContain(NEW.slice(3));
    }
    expect(await storedKeys(h.database.url)).toEqual(before);
    const status = await cli(['kms', 'status'], env({ DID_KMS_SECRET_KEY: NEW }));
    expect(status.code).toBe(1);
    expect(status.out).toContain('unreadable: (SecretBox, no key id): 2');
  });

  it('switches to the new key with the old as previous, re-encrypts, then drops the old', async () => {
    const rotating = { DID_KMS_SECRET_KEY: NEW, DID_KMS_PREVIOUS_SECRET_KEYS: OLD };
    // Rollout: an instance on NEW + OLD next to the one still on OLD alone; both sign.
    const rolled = await h.buildWith(rotating);
    try {
      const rolledUrl = (await rolled.service.listen()).url;
      expect(rolled.serviceDids.issuers).toEqual(h.app.serviceDids.issuers);
      expect(rolled.serviceDids.verifiers).toEqual(h.app.serviceDids.verifiers);
      await issueThrough(rolledUrl);
      expect((await h.post('/v2/did/create-vc', { holder, issuer }, auth)).status).toBe(200);

      const status = await cli(['kms', 'status', '--json'], env(rotating));
      expect(status.code).toBe(0);
      expect(JSON.parse(status.out)).toEqual({
        currentKeyId: 'k2',
        total: 2,
        sealedUnder: { '(SecretBox, no key id)': 2 },
        toReencrypt: 2,
        unreadable: {},
      });

      // Two runs at once (two operators, two Jobs): each key is moved exactly once.
      const runs = await Promise.all([
        cli(['kms', 'reencrypt', '--json'], env(rotating)),
        cli(['kms', 'reencrypt', '--json'], env(rotating)),
      ]);
      expect(runs.map((r) => r.code)).toEqual([0, 0]);
      const results = runs.map((r) => JSON.parse(r.out) as Record<string, number>);
      expect(results.reduce((sum, r) => sum + r.reencrypted!, 0)).toBe(2);
      for (const r of results) {
        expect(r.reencrypted! + r.alreadyCurrent! + r.changedMeanwhile!).toBe(2);
      }
      const stored = Object.values(await storedKeys(h.database.url));
      expect(stored).toEqual([
        expect.stringMatching(/^v1\.k2\./),
        expect.stringMatching(/^v1\.k2\./),
      ]);
      const again = await cli(['kms', 'reencrypt', '--json'], env(rotating));
      expect(JSON.parse(again.out)).toMatchObject({ reencrypted: 0, alreadyCurrent: 2 });
      expect(Object.values(await storedKeys(h.database.url))).toEqual(stored);
      // The rolled instance still signs (it holds NEW).
      await issueThrough(rolledUrl);
    } finally {
      await rolled.service.close();
    }

    // The old key dropped: everything still works, the VC issued before still verifies.
    const dropped = await h.buildWith({ DID_KMS_SECRET_KEY: NEW });
    try {
      expect(dropped.serviceDids.issuers).toEqual(h.app.serviceDids.issuers);
      await issueThrough((await dropped.service.listen()).url);
      expect((await h.post('/v2/did/verify-vc', vcBefore)).body.verified).toBe(true);
    } finally {
      await dropped.service.close();
    }

    // The same id with another value is refused too (a sealed value names its key by id only).
    const wrongValue = `k2:${randomBytes(32).toString('base64')}`;
    const err = await h.buildWith({ DID_KMS_SECRET_KEY: wrongValue }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /2 stored private key\(s\) of the local KMS are sealed under key id "k2", which is not among these keys or has another value there/,
    );
  });

  it('answers usage and configuration errors of the CLI with exit code 2', async () => {
    expect((await cli(['kms'], env({ DID_KMS_SECRET_KEY: NEW }))).code).toBe(2);
    expect((await cli(['keys', 'status'], env({ DID_KMS_SECRET_KEY: NEW }))).code).toBe(2);
    const missing = await cli(['kms', 'status'], env({}));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('DID_KMS_SECRET_KEY: required when APP_ENV=test');
    const help = await cli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.out).toContain('kms reencrypt');
  });
});
