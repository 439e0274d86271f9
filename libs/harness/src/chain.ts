/**
 * A dev chain of the caller's own (anvil, through @itp/dev-chain) on 127.0.0.1, that can be
 * stopped (connections refused) and started again on the same port, keeping its state when it has
 * a state file (anvil writes it on SIGTERM), and paused (SIGSTOP: a node that hangs, connections
 * open and no answers).
 */
import { HDNodeWallet } from 'ethers';
import { DEV_CHAIN, deployDidRegistry, startAnvil, type RunningAnvil } from '@itp/dev-chain';
import { freeze } from './processes.js';
import { guard, type Guard } from './reaper.js';

export interface LocalChainOptions {
  /** Where anvil loads its state from at start and writes it to on stop. Default: none. */
  stateFile?: string;
  /** Default: a free port (kept across stop and start). */
  port?: number;
  /** Default: DEV_CHAIN.chainId. */
  chainId?: number;
  /** Deploy the ERC-1056 DID registry (dev account #9 deploys it) at start. */
  deployRegistry?: boolean;
}

export class LocalChain {
  private anvil: RunningAnvil | undefined;
  private anvilGuard: Guard | undefined;
  private currentPort: number | undefined;
  /** Address of the DID registry, when deployRegistry was asked for; else ''. */
  didRegistryAddress = '';

  private constructor(private readonly options: LocalChainOptions) {
    this.currentPort = options.port;
  }

  static async start(options: LocalChainOptions = {}): Promise<LocalChain> {
    const chain = new LocalChain(options);
    await chain.start();
    if (options.deployRegistry) {
      try {
        const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
        chain.didRegistryAddress = await deployDidRegistry(chain.url, deployer.privateKey);
      } catch (err) {
        await chain.close();
        throw err;
      }
    }
    return chain;
  }

  get port(): number {
    if (this.currentPort === undefined) throw new Error('the chain has not started yet');
    return this.currentPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.anvil?.process.pid;
  }

  /** Starts anvil (on the same port, with its state file); resolves once it answers JSON-RPC. */
  async start(): Promise<void> {
    if (this.anvil) return;
    const anvil = await startAnvil({
      ...(this.currentPort !== undefined ? { port: this.currentPort } : {}),
      chainId: this.options.chainId ?? DEV_CHAIN.chainId,
      ...(this.options.stateFile ? { stateFile: this.options.stateFile } : {}),
    });
    this.anvil = anvil;
    this.currentPort = Number(new URL(anvil.url).port);
    const pid = anvil.process.pid;
    this.anvilGuard = guard({ label: 'anvil', ...(pid ? { pid } : {}) });
  }

  /** SIGTERM (anvil writes its state file) and waits for the exit. */
  async stop(): Promise<void> {
    const anvil = this.anvil;
    if (!anvil) return;
    anvil.process.kill('SIGCONT');
    await anvil.stop();
    this.anvil = undefined;
    this.anvilGuard?.release();
    this.anvilGuard = undefined;
  }

  /** SIGSTOP: connections stay open and nothing is answered (until resume). */
  pause(): void {
    freeze(this.anvil?.process.pid);
  }

  resume(): void {
    this.anvil?.process.kill('SIGCONT');
  }

  /** JSON-RPC straight to the node (funding, receipts, nonces, anvil_* methods). */
  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  async close(): Promise<void> {
    await this.stop();
  }
}
