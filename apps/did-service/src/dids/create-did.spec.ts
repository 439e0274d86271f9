import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DID_KEY_ALGORITHMS } from '@itp/schemas';
import { startDidHarness, type DidHarness } from '../test-support/did-harness.js';
import type { StandInAccount } from '../test-support/wallet-stand-in.js';

describe('POST /v2/did/create-did', () => {
  let h: DidHarness;
  beforeAll(async () => {
    h = await startDidHarness({ CREATE_DID_MAX_FAILURES: '3' });
  });
  afterAll(() => h.close());

  const body = (account: StandInAccount, alias: string) => ({
    alias,
    address: account.address,
    secretKey: account.secretKey,
  });

  it('answers the DID record of interface §2.3 for wallet credentials', async () => {
    const account = h.wallet.createAddress();
    const res = await h.post('/v2/did/create-did', body(account, 'alice-phone'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      did: `did:ethr:${account.address}`,
      controllerKeyId: account.address,
      keys: [
        {
          kid: account.address,
          kms: 'wallet',
          type: 'Secp256k1',
          publicKeyHex: expect.stringMatching(/^04[0-9a-f]{128}$/),
          privateKeyHex: '',
          meta: { algorithms: [...DID_KEY_ALGORITHMS], secretKey: '' },
        },
      ],
      services: [],
      provider: 'did:ethr',
      alias: 'alice-phone',
    });
  });

  it('is idempotent for the same credentials, also when sent many times at once', async () => {
    const account = h.wallet.createAddress();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.post('/v2/did/create-did', body(account, 'idem'))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    const again = await h.post('/v2/did/create-did', body(account, 'idem'));
    expect(again.body).toEqual(answers[0]?.body);
    expect(await h.app.agent.didManagerFind({ alias: 'idem' })).toHaveLength(1);
  });

  it('accepts the address in lower case and answers its EIP-55 form', async () => {
    const account = h.wallet.createAddress();
    const res = await h.post('/v2/did/create-did', {
      ...body(account, 'lower'),
      address: account.address.toLowerCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.did).toBe(`did:ethr:${account.address}`);
  });

  it('refuses a wrong secretKey or an unknown address with 401 and stores nothing', async () => {
    const account = h.wallet.createAddress();
    const wrong = await h.post('/v2/did/create-did', {
      ...body(account, 'nope'),
      secretKey: 'guess',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      error: { code: '401', message: 'address and secretKey do not match a wallet address' },
    });
    const unknown = await h.post('/v2/did/create-did', {
      alias: 'nope',
      address: '0x000000000000000000000000000000000000dEaD',
      secretKey: 'whatever',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(await h.app.agent.didManagerFind({ alias: 'nope' })).toEqual([]);
    expect((await h.post('/v2/did/create-did', body(account, 'nope'))).status).toBe(200);
  });

  it('answers 409 for an alias held by another DID; the same credentials keep their record', async () => {
    const first = h.wallet.createAddress();
    const second = h.wallet.createAddress();
    expect((await h.post('/v2/did/create-did', body(first, 'taken'))).status).toBe(200);
    const taken = await h.post('/v2/did/create-did', body(second, 'taken'));
    expect(taken.status).toBe(409);
    expect(taken.body.error).toEqual({
      code: '409',
      message: 'The alias "taken" is already used by another DID',
    });
    // Contract §3: the same DID again with matching credentials answers the existing record,
    // whatever alias is asked for (the stored alias stays) — unless that alias is another DID's.
    const again = await h.post('/v2/did/create-did', body(first, 'renamed'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ did: `did:ethr:${first.address}`, alias: 'taken' });
    expect(await h.app.agent.didManagerFind({ alias: 'renamed' })).toEqual([]);
    expect((await h.post('/v2/did/create-did', body(second, 'second'))).status).toBe(200);
    const stolen = await h.post('/v2/did/create-did', body(first, 'second'));
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.message).toBe('The alias "second" is already used by another DID');
    const serviceAlias = await h.post('/v2/did/create-did', body(second, 'itp-issuer'));
    expect(serviceAlias.status).toBe(409);
  });

  it('answers 400 for bodies that are not a create-did request', async () => {
    const account = h.wallet.createAddress();
    const cases: unknown[] = [
      {},
      { address: account.address, secretKey: account.secretKey },
      { ...body(account, 'x'), address: '0x1234' },
      { ...body(account, 'x'), address: account.address.toLowerCase().replace('0x', '0X') },
      { ...body(account, ''), alias: '' },
      { ...body(account, 'x'), alias: ' padded ' },
      { ...body(account, 'x'), secretKey: '' },
      [body(account, 'x')],
    ];
    for (const request of cases) {
      const res = await h.post('/v2/did/create-did', request);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('400');
    }
    const malformed = await h.post('/v2/did/create-did', '{"alias": ');
    expect(malformed.status).toBe(400);
    const res = await fetch(`${h.url}/v2/did/create-did`, { method: 'POST', body: 'alias=x' });
    expect(res.status).toBe(400);
  });

  it('binds the DID to the user of a bearer JWT at once; another user then gets 403', async () => {
    const account = h.wallet.createAddress();
    const alice = { authorization: `Bearer ${await h.auth.tokenFor('alice')}` };
    const bob = { authorization: `Bearer ${await h.auth.tokenFor('bob')}` };
    expect((await h.post('/v2/did/create-did', body(account, 'bound'), alice)).status).toBe(200);
    expect((await h.post('/v2/did/create-did', body(account, 'bound'), alice)).status).toBe(200);
    const other = await h.post('/v2/did/create-did', body(account, 'bound'), bob);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('403');
  });

  it('answers 401 for a bearer JWT that does not verify', async () => {
    const account = h.wallet.createAddress();
    const cases = [
      `Bearer ${await h.auth.foreignTokenFor('alice')}`,
      `Bearer ${await h.auth.tokenFor('alice', { expiresInSeconds: -60 })}`,
      'Bearer not-a-jwt',
      'Basic YWxpY2U6c2VjcmV0',
    ];
    for (const authorization of cases) {
      const res = await h.post('/v2/did/create-did', body(account, 'badbearer'), { authorization });
      expect(res.status).toBe(401);
    }
    expect(await h.app.agent.didManagerFind({ alias: 'badbearer' })).toEqual([]);
  });

  it('answers 429 with Retry-After after too many wrong secrets for one address', async () => {
    const account = h.wallet.createAddress();
    for (let i = 0; i < 3; i += 1) {
      const res = await h.post('/v2/did/create-did', {
        ...body(account, 'limited'),
        secretKey: `guess-${i}`,
      });
      expect(res.status).toBe(401);
    }
    const limited = await h.post('/v2/did/create-did', body(account, 'limited'));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('429');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = h.wallet.createAddress();
    expect((await h.post('/v2/did/create-did', body(other, 'not-limited'))).status).toBe(200);
  });

  it('never logs a secretKey', () => {
    const text = h.logs.join('\n');
    expect(text).toContain('created holder DID');
    expect(text).not.toMatch(/secretKey":"(?!\[redacted\])/);
    expect(text).not.toContain('guess-');
  });
});

describe('GET /v2/did/issuers and /v2/did/verifiers', () => {
  let h: DidHarness;
  beforeAll(async () => {
    h = await startDidHarness({
      DID_ISSUER_ALIASES: 'issuer-a, issuer-b',
      DID_VERIFIER_ALIASES: 'verifier-a',
    });
  });
  afterAll(() => h.close());

  it('lists the configured issuer and verifier DIDs with their aliases', async () => {
    const issuers = await h.get('/v2/did/issuers');
    expect(issuers.status).toBe(200);
    expect(issuers.body).toEqual([
      { alias: 'issuer-a', did: expect.stringMatching(/^did:ethr:0x[0-9a-fA-F]{40}$/) },
      { alias: 'issuer-b', did: expect.stringMatching(/^did:ethr:0x[0-9a-fA-F]{40}$/) },
    ]);
    expect(issuers.body[0].did).not.toBe(issuers.body[1].did);
    const verifiers = await h.get('/v2/did/verifiers');
    expect(verifiers.status).toBe(200);
    expect(verifiers.body).toEqual([
      { alias: 'verifier-a', did: expect.stringMatching(/^did:ethr:0x[0-9a-fA-F]{40}$/) },
    ]);
  });
});
