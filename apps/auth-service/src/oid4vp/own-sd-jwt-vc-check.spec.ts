import 'reflect-metadata';
import type { webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { exportJWK, generateKeyPair } from 'jose';
import { ServiceUnavailableError } from '@itp/errors';
import { issueTestSdJwtVc, presentTestSdJwtVc, testStatusList } from '@itp/presentations/testing';
import { createCa, issueLeaf, trustAnchorsFrom, type TrustAnchors } from '@itp/x509';
import { OwnSdJwtVcCheck } from './own-sd-jwt-vc-check.js';

// The rules of a login with this service's own SD-JWT VC, one by one (the credentials and
// presentations made by @sd-jwt/*; the whole flow through a wallet is own-sd-jwt-vcs.spec.ts).

const PUBLIC_URL = 'https://api.example.test';
const ISSUER = `${PUBLIC_URL}/v2/did/oid4vci`;
const VCT = `${PUBLIC_URL}/v2/did/oid4vci/vct/profile`;
const STATUS_URI = `${PUBLIC_URL}/v2/did/token-status-lists/1`;
const REQUEST = { nonce: 'nonce-1', clientId: 'decentralized_identifier:did:jwk:verifier' };

type Issuer = { privateKeyJwk: webcrypto.JsonWebKey; x5c: readonly string[] };
let own: Issuer;
let foreign: Issuer;
let ownAnchors: TrustAnchors;
let holder: { publicJwk: webcrypto.JsonWebKey; privateJwk: webcrypto.JsonWebKey };

beforeAll(async () => {
  const ownCa = await createCa({ subject: 'CN=Own issuer CA' });
  const foreignCa = await createCa({ subject: 'CN=Foreign issuer CA' });
  const leaf = (ca: typeof ownCa) =>
    issueLeaf(ca, { subject: 'CN=issuer', dnsNames: ['api.example.test'] });
  own = await leaf(ownCa);
  foreign = await leaf(foreignCa);
  ownAnchors = trustAnchorsFrom([ownCa.pem]);
  const keys = await generateKeyPair('ES256', { extractable: true });
  holder = {
    publicJwk: (await exportJWK(keys.publicKey)) as webcrypto.JsonWebKey,
    privateJwk: (await exportJWK(keys.privateKey)) as webcrypto.JsonWebKey,
  };
});

const now = () => Math.floor(Date.now() / 1000);
/** When the credentials were issued (seconds). */
const ISSUED_AT = now() - 5;

async function presentation(
  options: { by?: Issuer; idx?: number; iss?: string; vct?: string; sub?: unknown } = {},
  nonce = REQUEST.nonce,
): Promise<string> {
  const credential = await issueTestSdJwtVc({
    issuer: options.by ?? own,
    holderPublicJwk: holder.publicJwk,
    vct: options.vct ?? VCT,
    iss: options.iss ?? ISSUER,
    iat: ISSUED_AT,
    exp: now() + 3600,
    claims: { ...('sub' in options ? { sub: options.sub } : { sub: 'alice' }), name: 'Alice' },
    disclosable: ['name'],
    status: { idx: options.idx ?? 0, uri: STATUS_URI },
  });
  return presentTestSdJwtVc(credential, {
    holderPrivateJwk: holder.privateJwk,
    disclose: ['name'],
    nonce,
    audience: REQUEST.clientId,
  });
}

/** The own issuer's status list: index 1 revoked. */
const statusList = (by: Issuer = own) =>
  testStatusList({ issuer: by, bits: [0, 1, 0, 0], uri: STATUS_URI });

function check(
  options: {
    anchors?: () => TrustAnchors;
    refreshIfDue?: () => Promise<boolean>;
    fetchStatusList?: (uri: string) => Promise<string>;
  } = {},
) {
  const anchors = options.anchors ?? (() => ownAnchors);
  return new OwnSdJwtVcCheck(
    {
      ownIssuers: {
        get anchors() {
          return anchors();
        },
        refreshIfDue: options.refreshIfDue ?? (async () => false),
      },
      fetchStatusList: options.fetchStatusList ?? (() => statusList()),
    },
    { publicUrl: PUBLIC_URL },
  );
}

const refusal = (code: string) => ({
  verified: false,
  error: { code, message: expect.any(String) },
});

describe('OwnSdJwtVcCheck', () => {
  it('names the user (sub) and the issuance time (iat) of a valid own credential', async () => {
    await expect(check().check(await presentation(), REQUEST)).resolves.toEqual({
      verified: true,
      userId: 'alice',
      credentialIssuedAt: ISSUED_AT,
    });
  });

  it('refuses each broken rule, naming it', async () => {
    const cases: [string, Promise<string>][] = [
      ['revoked', presentation({ idx: 1 })],
      ['key_binding_nonce', presentation({}, 'another-nonce')],
      ['issuer_untrusted', presentation({ by: foreign })],
      ['issuer_not_own', presentation({ iss: 'https://issuer.example' })],
      ['wrong_vct', presentation({ vct: 'urn:eudi:pid:1' })],
      ['user_mismatch', presentation({ sub: '' })],
    ];
    for (const [code, made] of cases) {
      const verdict = await check().check(await made, REQUEST);
      expect({ code, verdict }).toEqual({ code, verdict: refusal(code) });
    }
    const garbled = await check().check('not-an-sd-jwt', REQUEST);
    expect(garbled.verified).toBe(false);
  });

  it('fetches the own anchors again for an untrusted chain and verifies once more when they changed', async () => {
    let anchors = trustAnchorsFrom([]);
    let refreshes = 0;
    const refreshing = check({
      anchors: () => anchors,
      refreshIfDue: async () => {
        refreshes += 1;
        anchors = ownAnchors;
        return true;
      },
    });
    await expect(refreshing.check(await presentation(), REQUEST)).resolves.toMatchObject({
      verified: true,
      userId: 'alice',
    });
    expect(refreshes).toBe(1);
    // Nothing changed: refused, without a second verification loop.
    const unchanged = check({
      anchors: () => trustAnchorsFrom([]),
      refreshIfDue: async () => false,
    });
    await expect(unchanged.check(await presentation(), REQUEST)).resolves.toEqual(
      refusal('issuer_untrusted'),
    );
  });

  it('is a 503 when the status list cannot be fetched; a list it cannot trust is a refusal', async () => {
    const down = check({
      fetchStatusList: async () => {
        throw new Error('connection refused');
      },
    });
    await expect(down.check(await presentation(), REQUEST)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    const forged = check({ fetchStatusList: () => statusList(foreign) });
    await expect(forged.check(await presentation(), REQUEST)).resolves.toEqual(
      refusal('status_unavailable'),
    );
  });
});
