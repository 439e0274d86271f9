import { describe, expect, it } from '@jest/globals';
import { createVcRequestSchema } from './verifiable-credential.js';
import { userInfoSchema } from './user-info.js';

describe('userInfoSchema', () => {
  it('accepts flat string, number and boolean values', () => {
    const info = {
      name: 'Alice',
      phone: '010-1234-5678',
      age: 30,
      adult: true,
      'd.RegNumber': 'x',
      _x: '',
    };
    expect(userInfoSchema.parse(info)).toEqual(info);
  });

  it.each([
    [{ nested: { a: 1 } }],
    [{ list: ['a'] }],
    [{ empty: null }],
    [{ id: 'did:ethr:0x0' }],
    [{ sub: 'other-user' }],
    [{ '': 'x' }],
    [{ '1st': 'x' }],
    [{ 'with space': 'x' }],
    [{ ['k'.repeat(65)]: 'x' }],
    [{ long: 'x'.repeat(1025) }],
    [{ nan: Number.NaN }],
    [Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]))],
    [Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(1000)]))],
  ])('refuses %j', (info) => {
    expect(userInfoSchema.safeParse(info).success).toBe(false);
  });

  it('refuses a __proto__ key as JSON.parse makes it, instead of dropping it', () => {
    for (const json of ['{"__proto__":{"x":1}}', '{"name":"a","__proto__":"x"}']) {
      const parsed = userInfoSchema.safeParse(JSON.parse(json));
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['__proto__']);
    }
  });

  it('is optional in create-vc (an empty object)', () => {
    const request = createVcRequestSchema.parse({
      holder: 'did:ethr:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      issuer: 'did:ethr:0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    expect(request.userInfo).toEqual({});
  });
});
