import type { ValidityInfo } from '@owf/mdoc';
import { refuse } from './refuse.js';

/** The MSO's validityInfo holds `now`: validFrom ≤ now ≤ validUntil (ISO 18013-5 §9.1.2.4). */
export function checkValidity(validityInfo: ValidityInfo, now: Date): void {
  const { validFrom, validUntil } = validityInfo;
  if (now.getTime() < validFrom.getTime())
    throw refuse('validity', `the MSO is valid from ${validFrom.toISOString()}`);
  if (now.getTime() > validUntil.getTime())
    throw refuse('validity', `the MSO expired at ${validUntil.toISOString()}`);
}
