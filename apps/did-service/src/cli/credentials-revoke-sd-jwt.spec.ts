import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { calculateJwkThumbprint } from 'jose';
import { X509Certificate } from '@itp/x509';
import { openSqlDatabase } from '@itp/stores';
import type { DidTables } from '../db/did-tables.js';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  statusListPath,
  type DidHarness,
} from '../testing/did-harness.js';
import { issueHarnessSdJwtVc } from '../testing/issue-harness-sd-jwt-vc.js';
import { runHarnessCli } from '../testing/run-harness-cli.js';
import {
  createTestSdJwtIssuerKey,
  TestSdJwtIssuerKeys,
  type TestSdJwtIssuerKey,
} from '../testing/test-sd-jwt-issuer-key.js';
import { sdJwtOf } from './revoke-command.js';

// The operator CLI's `credentials revoke` of SD-JWT VCs against the harness' database: the
// SD-JWT as issued, its JWT alone or `{ "sdJwt" }`, checked against the imported issuer keys
// (their certificates in did_sd_jwt_issuer_keys), no user check; refused when not ours.
describe('did-service CLI: credentials revoke of an SD-JWT VC', () => {
  let h: DidHarness;
  let key: TestSdJwtIssuerKey;

  const cli = (args: string[], stdin?: string) => runHarnessCli(h, args, stdin);
  const issue = (userId: string, signer = key) => issueHarnessSdJwtVc(h, userId, signer);
  const bitOf = async (entry: { idx: number; uri: string }) =>
    getListFromStatusListJWT(
      await (await fetch(`${h.url}${statusListPath(entry.uri)}`)).text(),
    ).getStatus(entry.idx);
  /** Records the key as imported (as `sd-jwt-issuer import` stores it; the sealed part unused here). */
  const recordImport = async (imported: TestSdJwtIssuerKey, at: number) => {
    const pem = (der: string) => new X509Certificate(Buffer.from(der, 'base64')).toString('pem');
    const database = openSqlDatabase<DidTables>(h.database.url);
    try {
      await database.db
        .insertInto('did_sd_jwt_issuer_keys')
        .values({
          thumbprint: await calculateJwkThumbprint(imported.publicJwk),
          private_key: 'sealed (not read by credentials revoke)',
          chain_pem: pem(imported.x5c[0]!),
          root_pem: imported.caPem,
          imported_at: at,
          chain_updated_at: at,
        })
        .execute();
    } finally {
      await database.close();
    }
  };

  beforeAll(async () => {
    key = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
    h = await startDidHarness({}, { sdJwtIssuerKeys: new TestSdJwtIssuerKeys(key) });
  });
  afterAll(() => h.close());

  it('recognises an SD-JWT VC in each form it is given', () => {
    expect(sdJwtOf(' a.b.c~d~ \n')).toBe('a.b.c~d~');
    expect(sdJwtOf('{"sdJwt":"a.b.c~"}')).toBe('a.b.c~');
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'dc+sd-jwt' })).toString(
      'base64url',
    );
    expect(sdJwtOf(`${header}.e30.sig`)).toBe(`${header}.e30.sig`);
    const w3c = Buffer.from(JSON.stringify({ alg: 'ES256K', typ: 'JWT' })).toString('base64url');
    expect(sdJwtOf(`${w3c}.e30.sig`)).toBeUndefined();
    expect(sdJwtOf('{"jwt":"a.b.c"}')).toBeUndefined();
    expect(sdJwtOf('not a credential')).toBeUndefined();
  });

  it('refuses (exit 1) while no issuer key is imported; revokes once it is, in every form', async () => {
    const first = await issue('gina');
    const refused = await cli(['credentials', 'revoke', first.sdJwt]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/does not verify as signed by this service/);
    expect(await bitOf(first.entry)).toBe(0);

    await recordImport(key, Date.now());
    const done = await cli(['credentials', 'revoke', first.sdJwt]);
    expect(done).toEqual({
      code: 0,
      out: `revoked: index ${first.entry.idx} of ${first.entry.uri}\n`,
      err: '',
    });
    expect(await bitOf(first.entry)).toBe(1);

    const second = await issue('gina');
    const json = await cli(
      ['credentials', 'revoke', '--json'],
      JSON.stringify({ sdJwt: second.sdJwt }),
    );
    expect([json.code, JSON.parse(json.out)]).toEqual([
      0,
      {
        revoked: true,
        statusListCredential: second.entry.uri,
        statusListIndex: String(second.entry.idx),
      },
    ]);
    const third = await issue('hal');
    expect((await cli(['credentials', 'revoke', '-'], `${third.sdJwt.split('~')[0]}\n`)).code).toBe(
      0,
    );
    expect(await bitOf(third.entry)).toBe(1);
  });

  it('refuses (exit 1) an SD-JWT VC signed by a key never imported, or tampered', async () => {
    const stranger = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
    const forged = await issue('ivy', stranger);
    const genuine = await issue('ivy');
    const [jwt] = genuine.sdJwt.split('~');
    const tampered = `${jwt!.slice(0, -4)}AAAA~`;
    for (const sdJwt of [forged.sdJwt, tampered]) {
      const res = await cli(['credentials', 'revoke', sdJwt]);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/does not verify as signed by this service/);
    }
    expect(await bitOf(forged.entry)).toBe(0);
    expect(await bitOf(genuine.entry)).toBe(0);
  });
});
