import { describe, expect, it } from '@jest/globals';
import { clientGroup } from './client-group.js';

describe('clientGroup', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const group = '2001:db8:85a3:42::/64';
    expect(clientGroup('2001:db8:85a3:42::1')).toBe(group);
    expect(clientGroup('2001:0db8:85a3:0042:ffff:ffff:ffff:fffe')).toBe(group);
    expect(clientGroup('2001:DB8:85A3:42:1:2:3:4')).toBe(group);
    expect(clientGroup('2001:db8:85a3:43::1')).not.toBe(group);
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('passes anything that is no address through', () => {
    expect(clientGroup('unknown')).toBe('unknown');
    expect(clientGroup('')).toBe('');
  });
});
