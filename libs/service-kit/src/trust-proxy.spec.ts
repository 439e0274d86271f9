import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.js';
import { trustProxySetting } from './trust-proxy.js';

const schema = z.object({ TRUST_PROXY: trustProxySetting });
const read = (TRUST_PROXY?: string) => loadConfig(schema, { TRUST_PROXY }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, so a direct caller cannot choose its client address', () => {
    expect(read()).toBe(false);
  });

  it('reads booleans, hop counts, addresses, subnets and proxy-addr names', () => {
    expect(read('true')).toBe(true);
    expect(read('false')).toBe(false);
    expect(read('1')).toBe(1);
    expect(read('loopback')).toEqual(['loopback']);
    expect(read('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('refuses what express would misread, naming the bad entry', () => {
    expect(() => read('loopbak')).toThrow(ConfigError);
    expect(() => read('10.0.0.0/8/1')).toThrow(/bad: 10.0.0.0\/8\/1/);
  });
});
