import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SigningKey } from 'ethers';
import { DID_KEY_ALGORITHMS } from '@itp/schemas';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import type { StandInAccount } from '../testing/wallet-stand-in.js';

describe('POST /v2/did/create-did', () => {
  let h: DidHarness;
  beforeAll(async () => {
    h = await startDidHarness();
  });
  afterAll(() => h.close());

  const body = (account: StandInAccount, alias: string) => ({
    alias,
    address: account.address,
    secretKey: account.secretKey,
  });

  it('answers the DID record of docs/api.md §3.1 for wallet credentials', async () => {
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
    const stored = await h.app.agent.didManagerFind({ provider: 'did:ethr' });
    expect(stored.filter((d) => d.did === `did:ethr:${account.address}`)).toHaveLength(1);
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
    expect(
      (await h.app.agent.didManagerFind({})).filter((d) => d.did.endsWith(account.address)),
    ).toEqual([]);
    expect((await h.post('/v2/did/create-did', body(account, 'nope'))).status).toBe(200);
  });

  it("scopes aliases to the wallet: nobody can squat another wallet's alias", async () => {
    const first = h.wallet.createAddress();
    const second = h.wallet.createAddress();
    // Before the review, the second wallet got 409 for an alias the first one had taken.
    expect((await h.post('/v2/did/create-did', body(first, 'alice'))).status).toBe(200);
    const same = await h.post('/v2/did/create-did', body(second, 'alice'));
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ did: `did:ethr:${second.address}`, alias: 'alice' });
    // A service DID's alias is no longer a global name a holder collides with either.
    const serviceAlias = await h.post(
      '/v2/did/create-did',
      body(h.wallet.createAddress(), 'itp-issuer'),
    );
    expect(serviceAlias.status).toBe(200);
    expect((await h.get('/v2/did/issuers')).body[0].alias).toBe('itp-issuer');
    // docs/api.md §3: the same DID again with matching credentials answers the existing record,
    // whatever alias is asked for (the stored alias stays).
    const again = await h.post('/v2/did/create-did', body(first, 'renamed'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ did: `did:ethr:${first.address}`, alias: 'alice' });
  });

  it('reads DIDs stored before aliases were scoped (plain alias) as before', async () => {
    const account = h.wallet.createAddress();
    const publicKeyHex = SigningKey.computePublicKey(account.privateKey, false).slice(2);
    await h.app.agent.didManagerImport({
      did: `did:ethr:${account.address}`,
      alias: 'legacy-plain',
      provider: 'did:ethr',
      controllerKeyId: account.address,
      keys: [
        {
          kid: account.address,
          kms: 'wallet',
          type: 'Secp256k1',
          publicKeyHex,
          privateKeyHex: '',
        },
      ],
      services: [],
    });
    const res = await h.post('/v2/did/create-did', body(account, 'other'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ did: `did:ethr:${account.address}`, alias: 'legacy-plain' });
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

  it('binds the DID to the user of a bearer JWT; the secretKey holder may re-bind it', async () => {
    const account = h.wallet.createAddress();
    const alice = { authorization: `Bearer ${await h.auth.tokenFor('alice')}` };
    const bob = { authorization: `Bearer ${await h.auth.tokenFor('bob')}` };
    expect((await h.post('/v2/did/create-did', body(account, 'bound'), alice)).status).toBe(200);
    expect(await h.app.bindings.boundUser(`did:ethr:${account.address}`)).toBe('alice');
    // Whoever holds the secretKey decides (docs/api.md §3, amended): bob proves it and re-binds.
    expect((await h.post('/v2/did/create-did', body(account, 'bound'), bob)).status).toBe(200);
    expect(await h.app.bindings.boundUser(`did:ethr:${account.address}`)).toBe('bob');
    // Without the secretKey nobody binds: a wrong one is 401 and the binding stays.
    const guess = await h.post(
      '/v2/did/create-did',
      { ...body(account, 'bound'), secretKey: 'x' },
      alice,
    );
    expect(guess.status).toBe(401);
    expect(await h.app.bindings.boundUser(`did:ethr:${account.address}`)).toBe('bob');
  });

  it('binds nothing without a bearer', async () => {
    const account = h.wallet.createAddress();
    expect((await h.post('/v2/did/create-did', body(account, 'free'))).status).toBe(200);
    expect(await h.app.bindings.boundUser(`did:ethr:${account.address}`)).toBeUndefined();
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

  it('lets nobody lock the owner out with wrong secrets (no per-address lockout)', async () => {
    const account = h.wallet.createAddress();
    // Before the review, ten wrong secrets from anyone made the owner's create-did answer 429.
    for (let i = 0; i < 12; i += 1) {
      const res = await h.post('/v2/did/create-did', {
        ...body(account, 'limited'),
        secretKey: `guess-${i}`,
      });
      expect(res.status).toBe(401);
    }
    expect((await h.post('/v2/did/create-did', body(account, 'limited'))).status).toBe(200);
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
