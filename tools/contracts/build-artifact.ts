/**
 * Builds the artifact of tools/contracts/ItpToken.sol (OpenZeppelin 5 ERC20) offline with the npm
 * solc compiler: contract name, compiler settings, ABI, creation bytecode and the SHA-256 of the
 * source, as JSON text formatted with the repository's prettier config (so `prettier --check .`
 * accepts the committed file). compile.ts writes it; compile.spec.ts checks that the committed
 * artifact is what the source compiles to.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import solc from 'solc';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const require = createRequire(import.meta.url);
const SOURCE_NAME = 'ItpToken.sol';
const CONTRACT_NAME = 'ItpToken';
/** `paris` (no PUSH0 / MCOPY): deployable on older EVM chains as well as on anvil. */
const EVM_VERSION = 'paris';
export const ARTIFACT_PATH = join(root, 'apps/token-rpc/src/contracts/itp-token.json');

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>
  >;
}

/** Resolves `@openzeppelin/contracts/...` imports from node_modules. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    const pkgRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'));
    const prefix = '@openzeppelin/contracts/';
    if (!path.startsWith(prefix))
      return { error: `import outside @openzeppelin/contracts: ${path}` };
    return { contents: readFileSync(join(pkgRoot, path.slice(prefix.length)), 'utf8') };
  } catch (err) {
    return { error: `cannot read ${path}: ${String(err)}` };
  }
}

export async function buildArtifact(): Promise<string> {
  const source = readFileSync(join(here, SOURCE_NAME), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_NAME]: { content: source } },
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: findImport }) as string,
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const contract = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc produced no ${CONTRACT_NAME}`);
  const ozVersion = (
    JSON.parse(readFileSync(require.resolve('@openzeppelin/contracts/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const artifact = {
    contractName: CONTRACT_NAME,
    generatedBy:
      'tools/contracts/compile.ts (do not edit; run `npx tsx tools/contracts/compile.ts`)',
    compiler: {
      solc: solc.version() as string,
      evmVersion: EVM_VERSION,
      optimizerRuns: 200,
      openzeppelinContracts: ozVersion,
    },
    sourceSha256: createHash('sha256').update(source).digest('hex'),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  const config = (await prettier.resolveConfig(ARTIFACT_PATH)) ?? {};
  return prettier.format(JSON.stringify(artifact), { ...config, parser: 'json' });
}
