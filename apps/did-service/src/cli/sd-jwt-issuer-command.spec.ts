import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { createCa } from '@itp/x509';
import { issueLeafFor } from '../sd-jwt-issuer/testing/issue-leaf-for.js';
import { testIssuerPki, type TestIssuerPki } from '../sd-jwt-issuer/testing/test-issuer-pki.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';

// The operator CLI's `sd-jwt-issuer` commands on the real PostgreSQL: import (refused with a
// clear message and exit 1 when a check fails), show, renew-certificate (same key), and the
// DID_KMS_SECRET_KEY rotation (`kms status` / `kms reencrypt`) covering the sealed issuer key.
const PUBLIC_URL = 'https://issuer.cli.test';
const OLD = randomBytes(32).toString('hex'); // id k1
const NEW = `k2:${randomBytes(32).toString('hex')}`;

describe('did-service CLI: sd-jwt-issuer', () => {
  let testDb: TestDatabase;
  let dir: string;
  let pki: TestIssuerPki;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCliCaptured(args, {
      DATABASE_URL: testDb.url,
      DID_KMS_SECRET_KEY: OLD,
      PUBLIC_URL,
      ...env,
    });
  const storedKey = async (): Promise<string> => {
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ private_key: string }>(
        'SELECT private_key FROM did_sd_jwt_issuer_keys',
      );
      return rows[0]?.private_key ?? '';
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'sd-jwt-issuer-cli-'));
    pki = await testIssuerPki('issuer.cli.test');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await testDb.drop();
  });

  it('answers usage errors with exit 2, and show without a key with exit 1', async () => {
    const noKey = await cli(['sd-jwt-issuer', 'import', '--chain', 'x.pem']);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/sd-jwt-issuer import needs --key <file> and --chain <file>/);
    expect(
      (await cli(['sd-jwt-issuer', 'renew-certificate', '--key', 'k', '--chain', 'c'])).code,
    ).toBe(2);
    expect((await cli(['sd-jwt-issuer', 'rotate'])).code).toBe(2);
    const noUrl = await cli(['sd-jwt-issuer', 'show'], { PUBLIC_URL: '' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.err).toMatch(/PUBLIC_URL: required by sd-jwt-issuer/);
    const none = await cli(['sd-jwt-issuer', 'show']);
    expect(none).toMatchObject({
      code: 1,
      out: expect.stringMatching(/no SD-JWT VC issuer key is imported/),
    });
    expect((await cli(['--help'])).out).toMatch(/sd-jwt-issuer renew-certificate --chain <file>/);
  });

  it('refuses a chain whose leaf does not name PUBLIC_URL host (exit 1), a missing file too', async () => {
    const other = await testIssuerPki('elsewhere.cli.test');
    const res = await cli([
      'sd-jwt-issuer',
      'import',
      '--key',
      file('other.key', other.keyPem),
      '--chain',
      file('other.pem', other.chainPem),
    ]);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(
      /^error: the leaf certificate's SAN dNSName entries \(elsewhere.cli.test\) do not include issuer.cli.test/,
    );
    const missing = await cli([
      'sd-jwt-issuer',
      'import',
      '--key',
      join(dir, 'none.key'),
      '--chain',
      file('c.pem', pki.chainPem),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--key: cannot read .*none.key \(ENOENT\)/);
  });

  it('imports, shows (never the key), renews the certificate keeping the key', async () => {
    const imported = await cli([
      'sd-jwt-issuer',
      'import',
      '--key',
      file('issuer.key', pki.keyPem),
      '--chain',
      file('issuer.pem', pki.chainPem),
    ]);
    expect(imported.code).toBe(0);
    expect(imported.out).toMatch(/^imported: this key is now the current SD-JWT VC issuer key/);
    expect(imported.out).toContain('did:         did:web:issuer.cli.test');
    const shown = await cli(['sd-jwt-issuer', 'show', '--json']);
    expect(shown.code).toBe(0);
    const { current } = JSON.parse(shown.out);
    expect(current).toMatchObject({
      did: 'did:web:issuer.cli.test',
      kid: `did:web:issuer.cli.test#${current.thumbprint}`,
      subject: 'CN=issuer.cli.test, O=ITP test issuer',
      root: 'CN=ITP test issuer CA, O=ITP',
    });
    for (const out of [imported.out, shown.out]) expect(out).not.toContain(pki.privateJwk.d);

    const ca = await createCa({ subject: 'CN=ITP second CA, O=ITP' });
    const leaf = await issueLeafFor(ca, pki.privateJwk, 'issuer.cli.test');
    const renewed = await cli([
      'sd-jwt-issuer',
      'renew-certificate',
      '--chain',
      file('leaf2.pem', leaf),
      '--root',
      file('ca2.pem', ca.pem),
      '--json',
    ]);
    expect(renewed.code).toBe(0);
    expect(JSON.parse(renewed.out).current).toMatchObject({
      thumbprint: current.thumbprint,
      kid: current.kid,
      subject: 'CN=issuer.cli.test, O=ITP renewed issuer',
      root: 'CN=ITP second CA, O=ITP',
    });
  });

  it('kms status / reencrypt move the sealed issuer key to a new DID_KMS_SECRET_KEY', async () => {
    const before = await storedKey();
    expect(before).toMatch(/^v1\.k1\./);
    const rotating = { DID_KMS_SECRET_KEY: NEW, DID_KMS_PREVIOUS_SECRET_KEYS: OLD };
    const status = await cli(['kms', 'status', '--json'], rotating);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({
      currentKeyId: 'k2',
      sealedUnder: { k1: 1 },
      toReencrypt: 1,
      unreadable: {},
    });
    // Without the old key, the issuer key does not open (and is counted as unreadable).
    const without = await cli(['kms', 'status'], { DID_KMS_SECRET_KEY: NEW });
    expect(without.code).toBe(1);
    expect(without.out).toContain('unreadable: k1: 1');
    expect((await cli(['sd-jwt-issuer', 'show'], { DID_KMS_SECRET_KEY: NEW })).err).toMatch(
      /sealed under key id "k1"/,
    );

    const moved = await cli(['kms', 'reencrypt', '--json'], rotating);
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.out)).toMatchObject({ reencrypted: 1, total: 1 });
    expect(await storedKey()).toMatch(/^v1\.k2\./);
    const after = await cli(['sd-jwt-issuer', 'show', '--json'], { DID_KMS_SECRET_KEY: NEW });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.out).current.thumbprint).toBeDefined();
    expect((await cli(['sd-jwt-issuer', 'show'])).code).toBe(1);
  });
});
