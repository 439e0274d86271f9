import './setup.js';
import { loadOrCreateDevSecret } from '@itp/crypto';
import { X509Certificate } from '@peculiar/x509';
import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCa } from './create-ca.js';
import { devHostName } from './dev-host-name.js';
import { DevPkiError } from './dev-pki-error.js';
import { ES256_KEY_ALGORITHM, type CertificateWithKey } from './generate-certificate.js';
import { issueLeaf } from './issue-leaf.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';
import type { JsonWebKey } from './web-crypto-types.js';

/** A dev leaf: its private key (a dev secret: never logged or served) and its x5c (leaf, CA). */
export interface DevLeaf {
  privateKeyJwk: JsonWebKey;
  x5c: string[];
  /** SAN dNSName entries: the verifier host. */
  dnsNames: string[];
}

/** The dev stack's CA (to be trusted by test wallets) and its verifier and issuer leaves. */
export interface DevPki {
  caPem: string;
  verifier: DevLeaf;
  issuer: DevLeaf;
}

export interface DevPkiOptions {
  /** The host of PUBLIC_URL: the verifier's `x509_san_dns` client identifier. */
  verifierHost: string;
}

const CA_FILE = 'dev-ca.json';
const DEV_VALIDITY_DAYS = 3650;

interface CaRecord {
  certificatePem: string;
  privateKeyJwk: JsonWebKey;
}

/**
 * Development only. The CA is created once in `dir/dev-ca.json`; the verifier and issuer leaves
 * (SAN dNSName = verifierHost) once per host and CA in `dir/dev-leaves.<host>.<ca>.json`, so a new
 * port keeps the leaves and a new host name gets new leaves from the same CA. Files are mode 0600
 * and written through @itp/crypto's loadOrCreateDevSecret: processes starting together agree.
 * What is read back is checked (the leaves chain to the CA at this time), else DevPkiError.
 */
export async function loadOrCreateDevPki(dir: string, opts: DevPkiOptions): Promise<DevPki> {
  const host = devHostName(opts.verifierHost);
  const caFile = join(dir, CA_FILE);
  const caText = await loadOrCreate(caFile, newCaRecord);
  const ca = await readCa(caFile, caText);
  const caId = createHash('sha256').update(new Uint8Array(ca.certificate.rawData)).digest('hex');
  const leavesFile = join(dir, `dev-leaves.${host}.${caId.slice(0, 16)}.json`);
  const leavesText = await loadOrCreate(leavesFile, () => newLeaves(ca, host));
  const leaves = await readLeaves(leavesFile, leavesText, ca, host);
  return { caPem: ca.certificate.toString('pem'), ...leaves };
}

async function loadOrCreate(file: string, create: () => Promise<unknown>): Promise<string> {
  const existing = readExisting(file);
  if (existing !== undefined) return existing;
  const created = JSON.stringify(await create());
  return loadOrCreateDevSecret(file, () => created);
}

function readExisting(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return text.trim() === '' ? undefined : text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DevPkiError(`dev PKI file ${file} cannot be read`, { cause: err });
  }
}

async function newCaRecord(): Promise<CaRecord> {
  const ca = await createCa({
    subject: 'CN=ITP dev CA (not for production), O=ITP',
    validityDays: DEV_VALIDITY_DAYS,
  });
  return {
    certificatePem: ca.pem,
    privateKeyJwk: privateJwk(await webcrypto.subtle.exportKey('jwk', ca.privateKey)),
  };
}

async function newLeaves(
  ca: CertificateWithKey,
  host: string,
): Promise<{ verifier: DevLeaf; issuer: DevLeaf }> {
  const leaf = async (subject: string): Promise<DevLeaf> => {
    const issued = await issueLeaf(ca, {
      subject,
      dnsNames: [host],
      validityDays: DEV_VALIDITY_DAYS,
      keyUsage: 'signing',
    });
    return { privateKeyJwk: issued.privateKeyJwk, x5c: issued.x5c, dnsNames: [host] };
  };
  return {
    verifier: await leaf(`CN=${host}, O=ITP dev verifier`),
    issuer: await leaf(`CN=${host}, O=ITP dev issuer`),
  };
}

async function readCa(file: string, text: string): Promise<CertificateWithKey> {
  const hint = `delete ${file} (and the dev-leaves.* files beside it) to create a new dev CA`;
  let certificate: X509Certificate;
  let privateKey: webcrypto.CryptoKey;
  try {
    const record = JSON.parse(text) as Partial<CaRecord>;
    certificate = new X509Certificate(String(record.certificatePem));
    privateKey = await webcrypto.subtle.importKey(
      'jwk',
      record.privateKeyJwk ?? {},
      ES256_KEY_ALGORITHM,
      false,
      ['sign'],
    );
  } catch (cause) {
    throw new DevPkiError(`dev PKI file ${file} is not a dev CA: ${hint}`, { cause });
  }
  if (new Date() > certificate.notAfter) {
    throw new DevPkiError(`the dev CA in ${file} expired: ${hint}`);
  }
  return { certificate, privateKey };
}

async function readLeaves(
  file: string,
  text: string,
  ca: CertificateWithKey,
  host: string,
): Promise<{ verifier: DevLeaf; issuer: DevLeaf }> {
  try {
    const record = JSON.parse(text) as { verifier?: DevLeaf; issuer?: DevLeaf };
    const anchors = { certificates: [ca.certificate] };
    const check = async (leaf: DevLeaf | undefined): Promise<DevLeaf> => {
      if (leaf === undefined) throw new Error('a leaf is missing');
      const verified = await verifyCertificateChain(leaf.x5c, anchors);
      if (!verified.dnsNames.includes(host)) throw new Error(`the leaf does not name ${host}`);
      const { x, y } = verified.publicKeyJwk;
      if (leaf.privateKeyJwk.x !== x || leaf.privateKeyJwk.y !== y) {
        throw new Error("the private key is not the leaf's");
      }
      return { privateKeyJwk: leaf.privateKeyJwk, x5c: leaf.x5c, dnsNames: verified.dnsNames };
    };
    return { verifier: await check(record.verifier), issuer: await check(record.issuer) };
  } catch (cause) {
    throw new DevPkiError(
      `dev PKI file ${file} does not hold leaves of the dev CA for ${host}: delete it to issue new ones`,
      { cause },
    );
  }
}

function privateJwk({ kty, crv, x, y, d }: JsonWebKey): JsonWebKey {
  return { kty, crv, x, y, d };
}
