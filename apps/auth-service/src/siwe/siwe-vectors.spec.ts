/**
 * The EIP-4361 test vectors of the reference implementation (spruceid/siwe, copied as data into
 * ./test-vectors with their licence) against auth-service's parser and verifier: the verifier
 * runs with the nonce store on the test Redis and viem on the test chain.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from '@jest/globals';
import { RedisKvStore, type OneTimeMarks } from '@itp/stores';
import { testChainUrl, testRedisUrl, uniquePrefix } from '@itp/testing';
import type { Hex } from 'viem';
import { BadRequestError, UnauthorizedError } from '@itp/errors';
import { SiweMalformedError } from '../errors.js';
import { parseSiweMessage, type SiweFields } from './parse-siwe-message.js';
import { SiweLogin, type SiweLoginDeps } from './siwe-login.js';
import { SiweNonces } from './siwe-nonces.js';
import { ChainSiweSignatureVerifier } from './siwe-signature-verifier.js';

const vectors = <T>(name: string): Record<string, T> =>
  JSON.parse(
    readFileSync(new URL(`./test-vectors/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, T>;

/** The service's message fields as the vectors write them: an absent optional one may be null. */
type MessageFields = Omit<SiweFields, 'scheme' | 'statement'> & {
  scheme?: string | null;
  statement?: string | null;
};

interface VerificationVector extends MessageFields {
  signature: string;
  /** The verifier's domain, when it differs from the message's. */
  domainBinding?: string;
  /** The nonce the verifier issued, when it differs from the message's. */
  matchNonce?: string;
  /** The verifier's clock. */
  time?: string;
}

/** The EIP-4361 text of a message (the template of the specification, §"Message Format"). */
function formatMessage(f: MessageFields): string {
  const origin = f.scheme ? `${f.scheme}://${f.domain}` : f.domain;
  const lines = [`${origin} wants you to sign in with your Ethereum account:`, f.address, ''];
  if (f.statement) lines.push(f.statement, '');
  lines.push(`URI: ${f.uri}`, `Version: ${f.version}`, `Chain ID: ${f.chainId}`);
  lines.push(`Nonce: ${f.nonce}`, `Issued At: ${f.issuedAt}`);
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  if (f.notBefore) lines.push(`Not Before: ${f.notBefore}`);
  if (f.requestId !== undefined) lines.push(`Request ID: ${f.requestId}`);
  if (f.resources) lines.push('Resources:', ...f.resources.map((r) => `- ${r}`));
  return lines.join('\n');
}

describe('EIP-4361 parsing vectors (spruceid/siwe)', () => {
  const positive = vectors<{ message: string; fields: Record<string, unknown> }>(
    'parsing_positive',
  );
  const negative = vectors<string>('parsing_negative');

  it('has the vectors it claims to run', () => {
    expect(Object.keys(positive).length).toBeGreaterThanOrEqual(19);
    expect(Object.keys(negative).length).toBeGreaterThanOrEqual(29);
  });

  it.each(Object.entries(positive))('parses %s into its fields', (_name, vector) => {
    const parsed = parseSiweMessage(vector.message) as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(vector.fields)) {
      // The vectors write an absent optional field as null.
      expect([field, parsed[field] ?? null]).toEqual([field, value]);
    }
  });

  it.each(Object.entries(negative))('refuses %s as malformed (400)', (_name, message) => {
    let thrown: unknown;
    try {
      parseSiweMessage(message);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SiweMalformedError);
    expect(thrown).toBeInstanceOf(BadRequestError);
  });
});

describe('EIP-4361 verification vectors (spruceid/siwe)', () => {
  /** The client address the checks are made for (no limit of chain checks here). */
  const CLIENT = '192.0.2.1';
  const verifier = new ChainSiweSignatureVerifier({ rpcUrl: testChainUrl(), timeoutMs: 10_000 });
  const stores: RedisKvStore[] = [];
  afterAll(() => Promise.all(stores.map((kv) => kv.close())));

  /** The durable marks' rule (a nonce is marked once); the SQL ones are run by siwe.spec.ts. */
  const ledger = (): OneTimeMarks => {
    const used = new Set<string>();
    return {
      mark: async (key) => (used.has(key) ? false : (used.add(key), true)),
      isMarked: async (key) => used.has(key),
    };
  };

  /** A verifier set up as the vector says: its domain, the nonce it issued, its clock. */
  async function verifierFor(vector: VerificationVector): Promise<SiweLogin> {
    // Its own nonces (several vectors share a nonce).
    const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('siwe-vectors') });
    stores.push(kv);
    const now = vector.time ? Date.parse(vector.time) : Date.now();
    const nonces = new SiweNonces(kv, ledger(), () => now);
    await nonces.remember(vector.matchNonce ?? vector.nonce);
    const deps = { nonces, verifier } as unknown as SiweLoginDeps;
    return new SiweLogin(deps, {
      expected: {
        domain: vector.domainBinding ?? vector.domain,
        uri: vector.uri,
        chainId: vector.chainId,
      },
      clock: () => now,
    });
  }

  const positive = vectors<VerificationVector>('verification_positive');
  const negative = vectors<VerificationVector>('verification_negative');

  it.each(Object.entries(positive))('accepts %s', async (_name, vector) => {
    const login = await verifierFor(vector);
    const message = formatMessage(vector);
    await expect(login.verifyMessage(message, vector.signature as Hex, CLIENT)).resolves.toBe(
      vector.address,
    );
    // …once: the nonce is used up.
    await expect(login.verifyMessage(message, vector.signature as Hex, CLIENT)).rejects.toThrow(
      /nonce/,
    );
  });

  it.each(Object.entries(negative))('refuses %s', async (_name, vector) => {
    const login = await verifierFor(vector);
    let thrown: unknown;
    try {
      await login.verifyMessage(formatMessage(vector), vector.signature as Hex, CLIENT);
    } catch (err) {
      thrown = err;
    }
    // 401, or 400 for the vectors whose dates name no real instant.
    expect(thrown instanceof UnauthorizedError || thrown instanceof SiweMalformedError).toBe(true);
  });

  it('has the vectors it claims to run', () => {
    expect(Object.keys(positive).length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(negative).length).toBeGreaterThanOrEqual(10);
  });
});
