import { PresentationRefusedError } from '../errors.js';
import type { SdJwtVcRefusalRule } from './types.js';

/** The error for a failed SD-JWT VC check, naming its rule. */
export function refuse(
  rule: SdJwtVcRefusalRule,
  message: string,
  cause?: unknown,
): PresentationRefusedError {
  return new PresentationRefusedError(
    rule,
    `SD-JWT VC refused (${rule}): ${message}`,
    cause === undefined ? undefined : { cause },
  );
}
