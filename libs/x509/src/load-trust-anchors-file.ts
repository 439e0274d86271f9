import './setup.js';
import { BasicConstraintsExtension } from '@peculiar/x509';
import { readFile } from 'node:fs/promises';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { trustAnchorsFrom, type TrustAnchors } from './trust-anchors.js';

/**
 * Reads the PEM bundle named by TRUSTED_ISSUER_CERTIFICATES (once, at start: a changed file needs
 * a restart) plus `extraPems` (e.g. the dev stack's CA). No file and no extra PEM gives no anchor
 * (every chain is then refused). A missing, unreadable or malformed file, or one holding a
 * certificate that is not a CA (it could never anchor a chain), is a CertificateBundleError naming
 * the file.
 */
export async function loadTrustAnchorsFile(
  file: string | undefined,
  extraPems: readonly string[] = [],
): Promise<TrustAnchors> {
  const pems = [...extraPems];
  if (file !== undefined && file !== '') pems.unshift(await readBundle(file));
  try {
    const anchors = trustAnchorsFrom(pems);
    const leaf = anchors.certificates.find(
      (certificate) => certificate.getExtension(BasicConstraintsExtension)?.ca !== true,
    );
    if (leaf !== undefined) {
      throw new CertificateBundleError(
        `${leaf.subject} is not a CA certificate (basicConstraints cA): only CAs anchor chains`,
      );
    }
    return anchors;
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
