import type { Stack } from '../stack/start-stack.js';
import { query } from '../stack/records.js';
import { waitFor } from '@itp/testing/wait-for';

export interface SettleFigures {
  records: number;
  /** Records not final (sending, sent, unknown) when the deadline passed. */
  open: number;
  /**
   * Of those, records the chain does not know at all (no receipt, not pending) whose nonce is
   * still free: open by design until their address sends again (docs/adr/0011: the reconciler
   * never declares `dropped` on the node's silence alone). A chain stopped and started from an
   * older state leaves these. They do not count against "every record final".
   */
  unknownToChain: number;
  /** Seconds from the call until every record was final (null: not within the deadline). */
  secondsToFinal: number | null;
  /** Records whose status / block does not match the chain's receipt. */
  mismatches: string[];
  byStatus: Record<string, number>;
}

interface Row {
  hash: string;
  status: string;
  from_address: string;
  nonce: string | number;
  block_number?: string | null;
}

const FINAL = ['mined', 'failed', 'dropped'];

/** An open record the chain has never heard of, at a nonce nothing has used yet. */
async function unknownToChain(stack: Stack, row: Row): Promise<boolean> {
  const [receipt, known, pending] = await Promise.all([
    stack.chain.call<unknown>('eth_getTransactionReceipt', [row.hash]),
    stack.chain.call<unknown>('eth_getTransactionByHash', [row.hash]),
    stack.chain.call<string>('eth_getTransactionCount', [row.from_address, 'pending']),
  ]);
  return receipt === null && known === null && Number(pending) <= Number(row.nonce);
}

/**
 * Waits (up to `deadlineMs`) until every transaction record of token-rpc is final, then checks
 * each against the chain: mined ↔ receipt status 1 (same block where recorded), failed with a
 * block ↔ receipt status 0, dropped ↔ no receipt.
 */
export async function settleTransactions(
  stack: Stack,
  deadlineMs = 60_000,
): Promise<SettleFigures> {
  const started = Date.now();
  let rows: Row[] = [];
  // A failing query or chain call ends the wait with its error, as it always did.
  const settled = await waitFor(
    async () => {
      try {
        rows = await query<Row>(stack.databaseUrl, 'SELECT * FROM token_transactions');
        const open = rows.filter((r) => !FINAL.includes(r.status));
        const lost = await Promise.all(open.map((r) => unknownToChain(stack, r)));
        return lost.every(Boolean) && { at: Date.now() };
      } catch (error) {
        return { error };
      }
    },
    { what: 'every transaction record to be final', timeoutMs: deadlineMs, intervalMs: 1_000 },
  ).catch(() => null); // not within the deadline: the figures say so
  if (settled && 'error' in settled) throw settled.error;
  const secondsToFinal = settled ? (settled.at - started) / 1000 : null;
  const mismatches: string[] = [];
  const byStatus: Record<string, number> = {};
  for (const row of rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    const receipt = await stack.chain.call<{ status: string; blockNumber: string } | null>(
      'eth_getTransactionReceipt',
      [row.hash],
    );
    const block = row.block_number == null ? null : Number(row.block_number);
    const ok =
      row.status === 'mined'
        ? receipt?.status === '0x1' && (block === null || Number(receipt.blockNumber) === block)
        : row.status === 'failed'
          ? block === null
            ? receipt === null
            : receipt?.status === '0x0'
          : row.status === 'dropped'
            ? receipt === null
            : false;
    if (!ok && ['mined', 'failed', 'dropped'].includes(row.status)) {
      mismatches.push(
        `${row.hash} ${row.status} (chain: ${receipt ? `status ${receipt.status}` : 'no receipt'})`,
      );
    }
  }
  const open = rows.filter((r) => !FINAL.includes(r.status));
  const lostFlags = await Promise.all(open.map((r) => unknownToChain(stack, r)));
  return {
    records: rows.length,
    open: open.length,
    unknownToChain: lostFlags.filter(Boolean).length,
    secondsToFinal,
    mismatches,
    byStatus,
  };
}
