import { describe, expect, it, jest } from '@jest/globals';
import type { DIDResolutionResult, ParsedDID } from 'did-resolver';
import { parse } from 'did-resolver';
import { createResolutionCache } from './resolution-cache.js';

const parsed = (url: string) => parse(url) as ParsedDID;
const found = (id: string): DIDResolutionResult => ({
  didResolutionMetadata: { contentType: 'application/did+ld+json' },
  didDocument: { id },
  didDocumentMetadata: {},
});

describe('createResolutionCache', () => {
  it('reuses a resolution until its time to live ends', async () => {
    let now = 1_000_000;
    {
      const cache = createResolutionCache({ ttlMs: 60_000, max: 10, now: () => now });
      const resolve = jest.fn(async () => found('did:ethr:0x1'));
      await cache(parsed('did:ethr:0x1'), resolve);
      await cache(parsed('did:ethr:0x1'), resolve);
      expect(resolve).toHaveBeenCalledTimes(1);
      now += 61_000;
      await cache(parsed('did:ethr:0x1'), resolve);
      expect(resolve).toHaveBeenCalledTimes(2);
    }
  });

  it('shares one lookup between concurrent resolutions and hands out copies', async () => {
    const cache = createResolutionCache({ ttlMs: 60_000, max: 10 });
    const resolve = jest.fn(async () => found('did:ethr:0x2'));
    const [a, b] = await Promise.all([
      cache(parsed('did:ethr:0x2'), resolve),
      cache(parsed('did:ethr:0x2'), resolve),
    ]);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    (a.didDocument as { id: string }).id = 'changed';
    expect((await cache(parsed('did:ethr:0x2'), resolve)).didDocument?.id).toBe('did:ethr:0x2');
  });

  it('keeps neither failed resolutions nor thrown errors', async () => {
    const cache = createResolutionCache({ ttlMs: 60_000, max: 10 });
    const failed = jest.fn(async (): Promise<DIDResolutionResult> => ({
      didResolutionMetadata: { error: 'notFound' },
      didDocument: null,
      didDocumentMetadata: {},
    }));
    await cache(parsed('did:ethr:0x3'), failed);
    await cache(parsed('did:ethr:0x3'), failed);
    expect(failed).toHaveBeenCalledTimes(2);
    const throwing = jest.fn(async (): Promise<DIDResolutionResult> => {
      throw new Error('chain down');
    });
    await expect(cache(parsed('did:ethr:0x4'), throwing)).rejects.toThrow('chain down');
    const ok = jest.fn(async () => found('did:ethr:0x4'));
    await cache(parsed('did:ethr:0x4'), ok);
    expect(ok).toHaveBeenCalledTimes(1);
  });

  it('bypasses the cache for ;no-cache=true and when the TTL is 0', async () => {
    const cache = createResolutionCache({ ttlMs: 60_000, max: 10 });
    const resolve = jest.fn(async () => found('did:ethr:0x5'));
    await cache(parsed('did:ethr:0x5;no-cache=true'), resolve);
    await cache(parsed('did:ethr:0x5;no-cache=true'), resolve);
    expect(resolve).toHaveBeenCalledTimes(2);
    const none = createResolutionCache({ ttlMs: 0, max: 10 });
    await none(parsed('did:ethr:0x6'), resolve);
    await none(parsed('did:ethr:0x6'), resolve);
    expect(resolve).toHaveBeenCalledTimes(4);
  });
});
