import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit a client address is counted as by every per-address limit (logins, the APIs' rate
 * limits): an IPv4 address as it is (an
 * IPv4-mapped IPv6 address too), an IPv6 address by its /64 network — one subscriber usually has a
 * whole /64, so counting single IPv6 addresses would give an attacker 2^64 fresh "clients".
 * Anything else (no address known) is counted as given.
 */
export function clientGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  const bare = address.split('%')[0]!; // a zone id (fe80::1%eth0) is not part of the network
  if (!isIPv6(bare)) return address;
  const [head = '', tail = ''] = bare.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; only the first four groups matter here.
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = bare.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups]
    : headGroups;
  const prefix = groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16).toString(16) : '0'))
    .join(':');
  return `${prefix}::/64`;
}
