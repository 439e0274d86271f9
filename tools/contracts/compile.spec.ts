import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ARTIFACT_PATH, buildArtifact } from './build-artifact.js';

describe('ERC-20 artifact', () => {
  it('is what tools/contracts/ItpToken.sol compiles to (run compile.ts after editing the source)', async () => {
    const built = await buildArtifact();
    expect(readFileSync(ARTIFACT_PATH, 'utf8')).toBe(built);
    const artifact = JSON.parse(built) as { abi: Array<{ name?: string }>; bytecode: string };
    expect(artifact.bytecode).toMatch(/^0x[0-9a-f]{1000,}$/);
    const names = artifact.abi.map((entry) => entry.name);
    for (const name of [
      'transfer',
      'balanceOf',
      'totalSupply',
      'allowance',
      'approve',
      'transferFrom',
      'name',
      'symbol',
      'decimals',
    ]) {
      expect(names).toContain(name);
    }
  }, 180_000);
});
