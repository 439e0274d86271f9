/** The fee fields of a transaction: EIP-1559 where the chain has a base fee, else legacy. */
export type FeeFields =
  { type: 2; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 0; gasPrice: bigint };

/**
 * EIP-1559 fees: room for the base fee to double (it rises at most 12.5 % per block, so six full
 * blocks) plus the tip. The tip is what the node suggests (eth_maxPriorityFeePerGas).
 */
export function eip1559Fees(baseFeePerGas: bigint, priorityFeePerGas: bigint): FeeFields {
  return {
    type: 2,
    maxPriorityFeePerGas: priorityFeePerGas,
    maxFeePerGas: baseFeePerGas * 2n + priorityFeePerGas,
  };
}

/** The plain value transfer to an account without code: exactly this much gas. */
export const TRANSFER_GAS = 21_000n;

/**
 * The gas limit for an estimate: a margin on top (contract calls can cost a little more when
 * state changes between estimate and inclusion), none for a plain transfer's exact 21 000.
 */
export function gasLimitFor(estimate: bigint, marginPercent: number): bigint {
  if (estimate <= TRANSFER_GAS) return estimate;
  return estimate + (estimate * BigInt(Math.round(marginPercent))) / 100n;
}
