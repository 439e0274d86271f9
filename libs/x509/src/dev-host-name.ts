import { isIP } from 'node:net';
import { DevPkiError } from './dev-pki-error.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/**
 * The verifier's host as a SAN dNSName (lower case): a DNS name, not an IP address (an
 * `x509_san_dns` client identifier is a DNS name; wallets refuse an IP address as one). It also
 * names a file, so nothing else passes.
 */
export function devHostName(host: string): string {
  const name = host.toLowerCase();
  if (name.length > 253 || !HOST_NAME.test(name) || isIP(name) !== 0) {
    throw new DevPkiError(
      `dev PKI: ${JSON.stringify(host)} is not a DNS host name (an x509_san_dns client identifier needs one, e.g. localhost)`,
    );
  }
  return name;
}
