import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ARTIFACTS, buildArtifact, type ArtifactSpec } from './build-artifact.js';

interface Compiled {
  abi: Array<{ name?: string }>;
  bytecode: string;
}

/** The functions each contract's ABI must list (a smoke check of what was compiled). */
const EXPECTED_FUNCTIONS: Record<string, string[]> = {
  ItpToken: [
    'transfer',
    'balanceOf',
    'totalSupply',
    'allowance',
    'approve',
    'transferFrom',
    'name',
    'symbol',
    'decimals',
  ],
  SiweTestAccount: ['isValidSignature', 'owner'],
  SiweTestAccountFactory: ['deploy', 'accountAddress'],
};

/** Contract name → compiled contract, for both artifact shapes (one contract or several). */
function compiledContracts(spec: ArtifactSpec, text: string): Map<string, Compiled> {
  const artifact = JSON.parse(text) as Compiled & { contracts?: Record<string, Compiled> };
  if (artifact.contracts) return new Map(Object.entries(artifact.contracts));
  return new Map([[spec.contracts[0]!.name, artifact]]);
}

describe('contract artifacts', () => {
  it.each(ARTIFACTS.map((spec) => [basename(spec.path), spec] as const))(
    '%s is what its tools/contracts sources compile to (run compile.ts after editing them)',
    async (_name, spec) => {
      const built = await buildArtifact(spec);
      expect(readFileSync(spec.path, 'utf8')).toBe(built);
      const contracts = compiledContracts(spec, built);
      expect([...contracts.keys()]).toEqual(spec.contracts.map((c) => c.name));
      for (const [name, contract] of contracts) {
        expect(contract.bytecode).toMatch(/^0x[0-9a-f]{500,}$/);
        const names = contract.abi.map((entry) => entry.name);
        for (const fn of EXPECTED_FUNCTIONS[name] ?? []) expect(names).toContain(fn);
      }
    },
    180_000,
  );

  it('lists an ABI expectation for every contract', () => {
    const names = ARTIFACTS.flatMap((spec) => spec.contracts.map((c) => c.name));
    expect(names.sort()).toEqual(Object.keys(EXPECTED_FUNCTIONS).sort());
  });
});
