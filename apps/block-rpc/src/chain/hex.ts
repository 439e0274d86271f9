/** A non-negative safe integer as a JSON-RPC quantity (`0x1b4`). */
export function toQuantity(n: number): string {
  return `0x${n.toString(16)}`;
}
