import { BadRequestError } from '@itp/errors';

/**
 * A PEM bundle (TRUSTED_ISSUER_CERTIFICATES or a given PEM) that cannot be read as certificates:
 * a configuration error. The message names the file or the entry (1-based), never its content.
 */
export class CertificateBundleError extends BadRequestError {}
