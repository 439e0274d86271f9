import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEV_CHAIN,
  deployDidRegistry,
  startAnvil,
  type RunningAnvil,
  type StateSettlement,
} from '@itp/dev-chain';

export interface DevChain {
  anvil: RunningAnvil;
  stateFile: string;
  didRegistryAddress: string;
  /** Something about the state file worth telling the developer (see stateNotice). */
  notice?: string;
}

/**
 * What to tell about the state file: nothing when anvil's routine extra genesis block (one per
 * start) was dropped; a note when more were (a file written before settling existed: block 0 is
 * now the one block 1 names, and block-rpc re-indexes once); a warning when it could not be checked.
 */
export function stateNotice(stateFile: string, state?: StateSettlement): string | undefined {
  if (state?.outcome === 'skipped') {
    return `could not check ${stateFile} (${state.reason}): block 0 may not be the block 1 links to`;
  }
  if (state?.outcome === 'settled' && state.removedBlocks > 1) {
    return (
      `removed ${state.removedBlocks} stray genesis blocks from ${stateFile} (earlier starts ` +
      `wrote them); block 0 is ${state.genesisHash} again`
    );
  }
  return undefined;
}

/**
 * anvil on a free port with its state in `<dataDir>/chain/state.json` (loaded at start, written
 * when anvil stops on SIGTERM/SIGINT; before it is loaded, the genesis blocks anvil added at
 * earlier starts are removed from it, so that the chain is the same at every start), and the
 * ERC-1056 registry deployed once by account #0.
 */
export async function startDevChain(dataDir: string): Promise<DevChain> {
  const dir = join(dataDir, 'chain');
  mkdirSync(dir, { recursive: true });
  const stateFile = join(dir, 'state.json');
  const anvil = await startAnvil({ chainId: DEV_CHAIN.chainId, stateFile }).catch(
    (err: unknown) => {
      throw new Error(
        `the dev chain did not start (${String(err)}). If ${stateFile} is damaged, move it away ` +
          'to start a new chain (the services keep data that refers to the old one: move the ' +
          'whole data folder for a clean start).',
      );
    },
  );
  try {
    const didRegistryAddress = await deployDidRegistry(
      anvil.url,
      DEV_CHAIN.devOnlyAccount0.privateKey,
    );
    const notice = stateNotice(stateFile, anvil.state);
    return { anvil, stateFile, didRegistryAddress, ...(notice ? { notice } : {}) };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
