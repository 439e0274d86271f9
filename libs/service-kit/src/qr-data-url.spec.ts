import { describe, expect, it } from '@jest/globals';
import { qrDataUrl, rememberedQrDataUrl } from './qr-data-url.js';

describe('rememberedQrDataUrl', () => {
  it('draws each text once, also for calls at the same moment', async () => {
    const drawn: string[] = [];
    const remembered = rememberedQrDataUrl(async (text) => {
      drawn.push(text);
      return `png:${text}`;
    });
    const [a, b] = await Promise.all([remembered('one'), remembered('one')]);
    expect([a, b, await remembered('one'), await remembered('two')]).toEqual([
      'png:one',
      'png:one',
      'png:one',
      'png:two',
    ]);
    expect(drawn).toEqual(['one', 'two']);
  });

  it('does not remember a failed drawing, and forgets the oldest beyond its size', async () => {
    let fail = true;
    let calls = 0;
    const remembered = rememberedQrDataUrl(
      async (text) => {
        calls += 1;
        if (fail) throw new Error('no');
        return text;
      },
      { max: 2 },
    );
    await expect(remembered('x')).rejects.toThrow('no');
    fail = false;
    expect(await remembered('x')).toBe('x');
    await remembered('y');
    await remembered('z');
    await remembered('x'); // forgotten: drawn again
    expect(calls).toBe(5);
  });

  it('remembers what qrDataUrl draws: a PNG data URL', async () => {
    const url = await rememberedQrDataUrl()('https://site.example/requestId=1');
    expect(url).toMatch(/^data:image\/png;base64,/);
    expect(url).toBe(await qrDataUrl('https://site.example/requestId=1'));
  });
});
