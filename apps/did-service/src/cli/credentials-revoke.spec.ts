import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { editJwtPayload, foreignCredential } from '../testing/jwt-tampering.js';
import { runHarnessCli } from '../testing/run-harness-cli.js';

// The operator CLI's `credentials revoke` against the harness' database and the dev chain: no
// user check, the VC from an argument or stdin (JWT or the VC JSON), refused for a VC that is not
// this service's, and what it revokes is seen by verify-vc at once.
describe('did-service CLI: credentials revoke', () => {
  let h: DidHarness;
  let issuer: string;
  let holder: string;
  let auth: Record<string, string>;

  const cli = (args: string[], stdin?: string) => runHarnessCli(h, args, stdin);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const issue = async (): Promise<any> =>
    (await h.post('/v2/did/create-vc', { holder, issuer, userInfo: {} }, auth)).body;

  beforeAll(async () => {
    h = await startDidHarness();
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    const account = h.wallet.createAddress();
    auth = { authorization: `Bearer ${await h.auth.tokenFor('frank')}` };
    holder = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'frank', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did;
  });
  afterAll(() => h.close());

  it('revokes a VC given as an argument, or as JSON on stdin; again is fine', async () => {
    const vc = await issue();
    const { statusListCredential, statusListIndex } = vc.credentialStatus;
    const first = await cli(['credentials', 'revoke', vc.proof.jwt]);
    expect(first).toEqual({
      code: 0,
      out: `revoked: index ${statusListIndex} of ${statusListCredential}\n`,
      err: '',
    });
    expect((await h.post('/v2/did/verify-vc', vc)).body.error.code).toBe('revoked');

    const other = await issue();
    const fromStdin = await cli(['credentials', 'revoke', '--json'], JSON.stringify(other));
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.out)).toEqual({
      revoked: true,
      statusListCredential: other.credentialStatus.statusListCredential,
      statusListIndex: other.credentialStatus.statusListIndex,
    });
    expect((await h.post('/v2/did/verify-vc', other)).body.error.code).toBe('revoked');
    expect((await cli(['credentials', 'revoke', '-'], `${vc.proof.jwt}\n`)).code).toBe(0);
  });

  it('refuses (exit 1) a VC of another issuer, a forged one, or one without our entry', async () => {
    const vc = await issue();
    const foreign = await foreignCredential(holder, 'frank');
    // Pointing a genuine VC's claims at another index: the signature no longer holds.
    const forged = editJwtPayload(vc.proof.jwt, (p) => {
      p.vc.credentialStatus.statusListIndex = '1';
    });
    for (const [jwt, message] of [
      [foreign.jwt, /no status entry of this service/],
      [forged, /does not verify/],
      ['not-a-jwt', /does not verify/],
    ] as const) {
      const res = await cli(['credentials', 'revoke', jwt]);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(message);
    }
    expect((await h.post('/v2/did/verify-vc', vc)).body.verified).toBe(true);
  });

  it('answers usage errors with exit 2 and the usage text', async () => {
    const none = await cli(['credentials', 'revoke']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/give the VC .* as an argument or on stdin/);
    expect(none.err).toMatch(/credentials revoke \[<vc> \| -\] \[--json\]/);
    expect((await cli(['credentials', 'burn'])).code).toBe(2);
    expect((await cli(['credentials', 'revoke', 'a', 'b'])).code).toBe(2);
    const help = await cli(['--help']);
    expect(help.out).toMatch(/credentials revoke/);
  });
});
