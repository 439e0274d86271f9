import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_CHAIN, deployDidRegistry, startAnvil, type RunningAnvil } from '@itp/dev-chain';

export interface DevChain {
  anvil: RunningAnvil;
  stateFile: string;
  didRegistryAddress: string;
}

/**
 * anvil on a free port with its state in `<dataDir>/chain/state.json` (loaded at start, written
 * when anvil stops on SIGTERM/SIGINT), and the ERC-1056 registry deployed once by account #0.
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
    return { anvil, stateFile, didRegistryAddress };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
