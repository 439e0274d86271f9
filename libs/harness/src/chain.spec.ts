import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_CHAIN, DID_REGISTRY_RUNTIME_CODE } from '@itp/dev-chain';
import { LocalChain } from './chain.js';
import { sleep, tcpOpen } from './processes.js';

const ADDRESS = '0x00000000000000000000000000000000000000b1';

describe('LocalChain', () => {
  let chain: LocalChain | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await chain?.close();
    chain = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('deploys the DID registry, and keeps its state across stop and start on the same port', async () => {
    dir = mkdtempSync(join(tmpdir(), 'itp-chain-spec-'));
    chain = await LocalChain.start({ stateFile: join(dir, 'chain.json'), deployRegistry: true });
    expect(chain.url).toBe(`http://127.0.0.1:${chain.port}`);
    expect(Number(await chain.call<string>('eth_chainId'))).toBe(DEV_CHAIN.chainId);
    expect(chain.didRegistryAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const code = await chain.call<string>('eth_getCode', [chain.didRegistryAddress, 'latest']);
    expect(code.toLowerCase()).toBe(DID_REGISTRY_RUNTIME_CODE);
    await chain.call('anvil_setBalance', [ADDRESS, '0x1234']);

    const { port, pid } = chain;
    await chain.stop();
    expect(chain.pid).toBeUndefined();
    expect(await tcpOpen(port)).toBe(false);
    await expect(chain.call('eth_chainId')).rejects.toThrow();

    await chain.start();
    expect(chain.port).toBe(port);
    expect(chain.pid).not.toBe(pid);
    expect(await chain.call('eth_getBalance', [ADDRESS, 'latest'])).toBe('0x1234');
    expect(
      (await chain.call<string>('eth_getCode', [chain.didRegistryAddress, 'latest'])).toLowerCase(),
    ).toBe(DID_REGISTRY_RUNTIME_CODE);
  });

  it('takes the chain id asked for, and without a state file starts empty again', async () => {
    chain = await LocalChain.start({ chainId: 1337 });
    expect(chain.didRegistryAddress).toBe('');
    expect(await chain.call('eth_chainId')).toBe('0x539');
    await chain.call('anvil_setBalance', [ADDRESS, '0x1234']);
    await chain.stop();
    await chain.start();
    expect(await chain.call('eth_getBalance', [ADDRESS, 'latest'])).toBe('0x0');
  });

  it('answers nothing while paused, and answers what was asked on resume', async () => {
    chain = await LocalChain.start();
    chain.pause();
    const pending = chain.call<string>('eth_chainId');
    const first = await Promise.race([pending, sleep(500).then(() => 'no answer')]);
    expect(first).toBe('no answer');
    chain.resume();
    expect(Number(await pending)).toBe(DEV_CHAIN.chainId);
  });
});
