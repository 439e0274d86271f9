import { readFile } from 'node:fs/promises';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { trustAnchorsFrom, type TrustAnchors } from './trust-anchors.js';

/**
 * Reads the PEM bundle named by TRUSTED_ISSUER_CERTIFICATES (once, at start: a changed file needs
 * a restart) plus `extraPems` (e.g. the dev stack's CA). No file and no extra PEM gives no anchor
 * (every chain is then refused). A missing, unreadable or malformed file is a CertificateBundleError
 * naming the file.
 */
export async function loadTrustAnchorsFile(
  file: string | undefined,
  extraPems: readonly string[] = [],
): Promise<TrustAnchors> {
  const pems = [...extraPems];
  if (file !== undefined && file !== '') pems.unshift(await readBundle(file));
  try {
    return trustAnchorsFrom(pems);
  } catch (err) {
    if (file === undefined || !(err instanceof CertificateBundleError)) throw err;
    throw new CertificateBundleError(`trusted certificates (${file}): ${err.message}`, {
      cause: err,
    });
  }
}

async function readBundle(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    throw new CertificateBundleError(`trusted certificates file ${file} ${reason}`, { cause });
  }
}
