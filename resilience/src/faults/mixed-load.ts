import type { Flows, Wallet } from '../client/flows.js';
import type { Answer } from '../client/http.js';
import { parseJson } from '../client/http.js';
import type { Stack } from '../stack/start-stack.js';

/** How one load request ended. */
export type Outcome =
  | 'success'
  /** A clear "unavailable": REST 503 with Retry-After, JSON-RPC resultCode "503". */
  | 'unavailable'
  /** A documented client error (409 of a tempKey used by a failed attempt, 429…). */
  | 'refused'
  /** The gateway's documented answer for an upstream that is down or restarting: 502/504 (REST shape or JSON-RPC -32300). */
  | 'upstream-down'
  /** Anything else: 500, -32603, resultCode "500", gateway 502/504, a 503 without Retry-After. */
  | 'unclear'
  | 'no-answer';

export interface LoadRecord {
  at: number;
  op: string;
  outcome: Outcome;
  detail: string;
}

/** Writes the load saw acknowledged: they must all still be there after the faults. */
export interface Acknowledged {
  wallets: string[];
  dids: string[];
  transactions: string[];
}

export function classifyRest(a: Answer): Outcome {
  if (a.error) return 'no-answer';
  if (a.status === 200) return 'success';
  if (a.status === 503) return a.headers['retry-after'] ? 'unavailable' : 'unclear';
  if (a.status === 502 || a.status === 504) return 'upstream-down';
  return a.status < 500 ? 'refused' : 'unclear';
}

export function classifyRpc(a: Answer): Outcome {
  if (a.error) return 'no-answer';
  const body = parseJson(a.text) as
    { result?: { resultCode?: string }; error?: { code?: number } } | undefined;
  if ((a.status === 502 || a.status === 504) && body?.error?.code === -32300)
    return 'upstream-down';
  if (a.status !== 200) return 'unclear';
  const code = body?.result?.resultCode;
  if (code === '200') return 'success';
  if (code === '503') return 'unavailable';
  if (code && Number(code) < 500) return 'refused';
  return 'unclear';
}

/**
 * The mixed load (logins, createAddress, getBlock, full transfer flows, create-did),
 * `workers` loops at once until stopped, each request recorded with its outcome.
 */
export class MixedLoad {
  readonly records: LoadRecord[] = [];
  readonly acknowledged: Acknowledged = { wallets: [], dids: [], transactions: [] };
  private running = false;
  private loops: Promise<void>[] = [];
  private payers: Wallet[] = [];

  constructor(
    private readonly stack: Stack,
    private readonly flows: Flows,
  ) {}

  private note(op: string, outcome: Outcome, detail: string): void {
    this.records.push({ at: Date.now(), op, outcome, detail: detail.slice(0, 200) });
  }

  async prepare(payers: number): Promise<void> {
    for (let i = 0; i < payers; i++) {
      const w = await this.flows.createAddress();
      this.acknowledged.wallets.push(w.address);
      await this.flows.fund(this.stack.chain, w.address);
      this.payers.push(w);
    }
  }

  start(workers: number): void {
    this.running = true;
    this.loops = Array.from({ length: workers }, (_, i) => this.loop(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(worker: number): Promise<void> {
    const user = this.stack.accounts.users[0]!;
    let token = '';
    for (let n = 0; this.running; n++) {
      const op = (worker + n) % 5;
      try {
        if (op === 0) {
          const a = await this.flows.api.login(user.id, user.password);
          const outcome = classifyRest(a);
          this.note('login', outcome, `${a.status} ${a.error ?? a.text}`);
          const t = (a.body as { token?: string } | undefined)?.token;
          if (t) {
            token = t;
            this.flows.ledger.add('jwt', t);
          }
        } else if (op === 1) {
          const a = await this.flows.api.rpc('/token', 'createAddress', {});
          const outcome = classifyRpc(a);
          this.note('createAddress', outcome, `${a.status} ${a.error ?? a.text}`);
          const data = a.result?.resultData as Record<string, unknown> | undefined;
          if (outcome === 'success' && data)
            this.acknowledged.wallets.push(this.flows.noteWallet(data).address);
        } else if (op === 2) {
          const a = await this.flows.api.rpc('/block', 'getBlock', ['latest', false]);
          this.note('getBlock', classifyRpc(a), `${a.status} ${a.error ?? a.text}`);
        } else if (op === 3) {
          await this.transferOnce(worker);
        } else {
          await this.createDidOnce(token);
        }
      } catch (err) {
        this.note(`op${op}`, 'unclear', err instanceof Error ? err.message : String(err));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async transferOnce(worker: number): Promise<void> {
    const payer = this.payers[worker % this.payers.length];
    if (!payer) return;
    let params: Record<string, unknown>;
    try {
      params = await this.flows.transferParams(
        payer,
        '0x000000000000000000000000000000000000dEaD',
        '1',
      );
    } catch (err) {
      // net_getTempKey or signData failed: classify by what it answered.
      const text = err instanceof Error ? err.message : String(err);
      const code = /"resultCode":"(\d+)"/.exec(text)?.[1];
      const outcome: Outcome = /-32300/.test(text)
        ? 'upstream-down'
        : code === '503'
          ? 'unavailable'
          : code && Number(code) < 500
            ? 'refused'
            : 'unclear';
      this.note('transfer', outcome, text);
      return;
    }
    const a = await this.flows.transfer(params);
    const outcome = classifyRpc(a);
    this.note('transfer', outcome, `${a.status} ${a.error ?? a.text}`);
    if (outcome === 'success' && a.result?.TransactionID)
      this.acknowledged.transactions.push(a.result.TransactionID);
  }

  private async createDidOnce(token: string): Promise<void> {
    const made = await this.flows.api.rpc('/token', 'createAddress', {});
    const madeOutcome = classifyRpc(made);
    const data = made.result?.resultData as Record<string, unknown> | undefined;
    if (madeOutcome !== 'success' || !data) {
      this.note(
        'create-did',
        madeOutcome,
        `createAddress: ${made.status} ${made.error ?? made.text}`,
      );
      return;
    }
    const wallet = this.flows.noteWallet(data);
    this.acknowledged.wallets.push(wallet.address);
    const a = await this.flows.createDid(
      wallet,
      `load-${wallet.address.slice(2, 10)}`,
      token || undefined,
    );
    const outcome = classifyRest(a);
    this.note('create-did', outcome, `${a.status} ${a.error ?? a.text}`);
    const did = (a.body as { did?: string } | undefined)?.did;
    if (outcome === 'success' && did) this.acknowledged.dids.push(did);
  }
}
