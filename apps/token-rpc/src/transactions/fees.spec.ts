import { describe, expect, it } from '@jest/globals';
import { eip1559Fees, gasLimitFor } from './fees.js';

describe('fees', () => {
  it('leaves room for the base fee to double, plus the tip', () => {
    expect(eip1559Fees(10n, 2n)).toEqual({ type: 2, maxFeePerGas: 22n, maxPriorityFeePerGas: 2n });
    expect(eip1559Fees(0n, 0n)).toEqual({ type: 2, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n });
  });

  it('adds the margin to contract calls but keeps a plain transfer at 21 000', () => {
    expect(gasLimitFor(21_000n, 20)).toBe(21_000n);
    expect(gasLimitFor(100_000n, 20)).toBe(120_000n);
    expect(gasLimitFor(100_000n, 0)).toBe(100_000n);
  });
});
