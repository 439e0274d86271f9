import { checkIssuerChain } from './check-issuer-chain.js';
import { didWebOf } from './did-web.js';
import type { IssuerKeyStore } from './issuer-key-store.js';
import {
  issuerKeyThumbprint,
  LocalSdJwtIssuerKey,
  type SdJwtIssuerKeyInfo,
} from './local-sd-jwt-issuer-key.js';
import { parseIssuerPrivateKey } from './parse-issuer-key.js';
import { SdJwtIssuerImportError } from './sd-jwt-issuer-errors.js';

export interface IssuerChainFiles {
  /** PEM bundle, leaf first (may end with the self-signed root). */
  chainPem: string;
  /** The root CA when the bundle does not end with it. */
  rootPem?: string | undefined;
}

/** What `sd-jwt-issuer show` prints (never the private key). */
export interface IssuerKeySummary extends Omit<SdJwtIssuerKeyInfo, 'notBefore' | 'notAfter'> {
  notBefore: string;
  notAfter: string;
  /** The trust anchor's subject: what wallets and verifiers must trust. */
  root: string;
  importedAt: string;
  chainUpdatedAt: string;
}

/**
 * `sd-jwt-issuer import`: checks the key (P-256) and its chain (parses, verifies to its root, the
 * leaf certifies the key, SAN dNSName = PUBLIC_URL's host), then stores the key sealed and the
 * chain beside it as the current key. Throws SdJwtIssuerImportError saying what failed.
 */
export async function importIssuerKey(
  store: IssuerKeyStore,
  input: IssuerChainFiles & { keyText: string; publicUrl: string; now?: Date },
): Promise<IssuerKeySummary> {
  const privateJwk = parseIssuerPrivateKey(input.keyText);
  const didWeb = didWebOf(input.publicUrl);
  const chain = await checkIssuerChain({
    jwk: privateJwk,
    chainPem: input.chainPem,
    rootPem: input.rootPem,
    host: didWeb.host,
    ...(input.now ? { now: input.now } : {}),
  });
  await store.save({
    thumbprint: await issuerKeyThumbprint(privateJwk),
    privateJwk,
    chainPem: chain.chainPem,
    rootPem: chain.rootPem,
  });
  return (await currentIssuerKey(store, input.publicUrl)) as IssuerKeySummary;
}

/**
 * `sd-jwt-issuer renew-certificate`: a new chain for the current key (same checks as import; the
 * leaf must certify the current key), so credentials issued before stay valid and the did:web
 * and `kid` do not change.
 */
export async function renewIssuerCertificate(
  store: IssuerKeyStore,
  input: IssuerChainFiles & { publicUrl: string; now?: Date },
): Promise<IssuerKeySummary> {
  const [current] = await store.list();
  if (!current) {
    throw new SdJwtIssuerImportError(
      'no SD-JWT VC issuer key is imported: import one first (sd-jwt-issuer import --key … --chain …)',
    );
  }
  const chain = await checkIssuerChain({
    jwk: current.privateJwk,
    chainPem: input.chainPem,
    rootPem: input.rootPem,
    host: didWebOf(input.publicUrl).host,
    ...(input.now ? { now: input.now } : {}),
  });
  await store.renewChain(current.thumbprint, chain);
  return (await currentIssuerKey(store, input.publicUrl)) as IssuerKeySummary;
}

/** `sd-jwt-issuer show`: the current key, or undefined when none is imported. */
export async function currentIssuerKey(
  store: IssuerKeyStore,
  publicUrl: string,
): Promise<IssuerKeySummary | undefined> {
  const [current] = await store.list();
  if (!current) return undefined;
  const key = await LocalSdJwtIssuerKey.create({
    privateJwk: current.privateJwk,
    x5c: current.x5c,
    did: didWebOf(publicUrl).did,
    rootPem: current.rootPem,
  });
  const info = key.info();
  return {
    ...info,
    notBefore: info.notBefore.toISOString(),
    notAfter: info.notAfter.toISOString(),
    root: rootSubject(current.rootPem),
    importedAt: new Date(current.importedAt).toISOString(),
    chainUpdatedAt: new Date(current.chainUpdatedAt).toISOString(),
  };
}

function rootSubject(pem: string): string {
  const body = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem)?.[1];
  return body ? subjectOf(body) : '';
}

function subjectOf(base64: string): string {
  return LocalSdJwtIssuerKey.certificate(base64.replace(/\s+/g, '')).subject;
}
