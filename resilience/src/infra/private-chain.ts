import { join } from 'node:path';
import { HDNodeWallet } from 'ethers';
import {
  DEV_CHAIN,
  deployDidRegistry,
  freePort,
  startAnvil,
  type RunningAnvil,
} from '@itp/dev-chain';

/**
 * An anvil of the suite's own (libs/dev-chain) with its state in `<dir>/chain.json`, so that a stop
 * and start keeps the chain (anvil writes the state on SIGTERM), on the same port. Paused with
 * SIGSTOP (a node that hangs: connections open, no answers) or stopped (connections refused).
 */
export class PrivateChain {
  private anvil: RunningAnvil | undefined;
  readonly url: string;
  didRegistryAddress = '';

  private constructor(
    readonly port: number,
    private readonly stateFile: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async start(dir: string): Promise<PrivateChain> {
    const chain = new PrivateChain(await freePort(), join(dir, 'chain.json'));
    await chain.start();
    // The ERC-1056 registry, deployed by dev account #9 (as the tests do).
    const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
    chain.didRegistryAddress = await deployDidRegistry(chain.url, deployer.privateKey);
    return chain;
  }

  get pid(): number | undefined {
    return this.anvil?.process.pid;
  }

  async start(): Promise<void> {
    this.anvil = await startAnvil({
      port: this.port,
      chainId: DEV_CHAIN.chainId,
      stateFile: this.stateFile,
    });
  }

  async stop(): Promise<void> {
    await this.anvil?.stop();
    this.anvil = undefined;
  }

  pause(): void {
    this.anvil?.process.kill('SIGSTOP');
  }

  resume(): void {
    this.anvil?.process.kill('SIGCONT');
  }

  /** JSON-RPC straight to the node (funding, receipts, nonces). */
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
}
