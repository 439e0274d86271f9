import { PresentationRefusedError } from '../errors.js';
import type { MdocRefusalRule } from './mdoc-types.js';

/** The refusal of an mdoc presentation: `rule` names the check, the message says why. */
export function refuse(rule: MdocRefusalRule, message: string): PresentationRefusedError {
  return new PresentationRefusedError(rule, `mdoc ${rule}: ${message}`);
}
