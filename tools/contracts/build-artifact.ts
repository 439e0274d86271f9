/**
 * Builds the committed contract artifacts from the Solidity sources in tools/contracts, offline
 * with the npm solc compiler: ABI, creation bytecode, compiler settings and the SHA-256 of each
 * source, as JSON text formatted with the repository's prettier config (so `prettier --check .`
 * accepts the committed files). compile.ts writes them; compile.spec.ts checks that every committed
 * artifact is what its sources compile to.
 *
 * An artifact of one contract keeps that contract's fields at the top level (`contractName`,
 * `sourceSha256`, `abi`, `bytecode`: the shape token-rpc reads); an artifact of several contracts
 * holds them under `contracts.<name>` and the source hashes under `sourceSha256.<file>`.
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
/** `paris` (no PUSH0 / MCOPY): deployable on older EVM chains as well as on anvil. */
const EVM_VERSION = 'paris';
const OPTIMIZER_RUNS = 200;
const GENERATED_BY =
  'tools/contracts/compile.ts (do not edit; run `npx tsx tools/contracts/compile.ts`)';

/** One contract of an artifact: its source file (in tools/contracts) and its contract name. */
export interface ContractRef {
  source: string;
  name: string;
}

/** One committed artifact: the contracts it holds and where it is written. */
export interface ArtifactSpec {
  /** Absolute path of the JSON artifact. */
  path: string;
  /** Compiled together in one solc run; the sources are those files (and what they import). */
  contracts: readonly ContractRef[];
}

/** Every artifact compile.ts writes and compile.spec.ts checks. */
export const ARTIFACTS: readonly ArtifactSpec[] = [
  {
    // token-rpc's createToken deploys it (OpenZeppelin 5 ERC20).
    path: join(root, 'apps/token-rpc/src/contracts/itp-token.json'),
    contracts: [{ source: 'ItpToken.sol', name: 'ItpToken' }],
  },
  {
    // @itp/testing/smart-account: ERC-1271 / ERC-6492 accounts for Sign-In with Ethereum tests.
    path: join(root, 'libs/testing/src/contracts/siwe-test-account.json'),
    contracts: [
      { source: 'SiweTestAccount.sol', name: 'SiweTestAccount' },
      { source: 'SiweTestAccountFactory.sol', name: 'SiweTestAccountFactory' },
    ],
  },
];

interface CompiledContract {
  abi: unknown[];
  evm: { bytecode: { object: string } };
}

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<string, Record<string, CompiledContract>>;
}

/** Resolves `@openzeppelin/contracts/...` imports from node_modules, other imports from here. */
function findImport(path: string): { contents: string } | { error: string } {
  const prefix = '@openzeppelin/contracts/';
  try {
    if (!path.startsWith(prefix)) return { contents: readFileSync(join(here, path), 'utf8') };
    const pkgRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'));
    return { contents: readFileSync(join(pkgRoot, path.slice(prefix.length)), 'utf8') };
  } catch (err) {
    return { error: `cannot read ${path}: ${String(err)}` };
  }
}

/** The distinct source files of `contracts`, in order, with their text. */
function readSources(contracts: readonly ContractRef[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const { source } of contracts) {
    if (!sources.has(source)) sources.set(source, readFileSync(join(here, source), 'utf8'));
  }
  return sources;
}

/** Compiles `sources` in one solc run; throws on any compiler error. */
function compile(sources: Map<string, string>): SolcOutput {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries([...sources].map(([name, content]) => [name, { content }])),
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
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
  return output;
}

/** `{ abi, bytecode }` of one compiled contract. */
function contractOutput(
  output: SolcOutput,
  { source, name }: ContractRef,
): { abi: unknown[]; bytecode: string } {
  const contract = output.contracts?.[source]?.[name];
  if (!contract) throw new Error(`solc produced no ${name} in ${source}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

function compilerSettings(): Record<string, unknown> {
  const ozVersion = (
    JSON.parse(readFileSync(require.resolve('@openzeppelin/contracts/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  return {
    solc: solc.version() as string,
    evmVersion: EVM_VERSION,
    optimizerRuns: OPTIMIZER_RUNS,
    openzeppelinContracts: ozVersion,
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The artifact object of `spec` (see the file comment for its two shapes). */
function artifactObject(spec: ArtifactSpec): Record<string, unknown> {
  const sources = readSources(spec.contracts);
  const output = compile(sources);
  const [only] = spec.contracts;
  if (spec.contracts.length === 1 && only) {
    return {
      contractName: only.name,
      generatedBy: GENERATED_BY,
      compiler: compilerSettings(),
      sourceSha256: sha256(sources.get(only.source) ?? ''),
      ...contractOutput(output, only),
    };
  }
  return {
    generatedBy: GENERATED_BY,
    compiler: compilerSettings(),
    sourceSha256: Object.fromEntries([...sources].map(([name, text]) => [name, sha256(text)])),
    contracts: Object.fromEntries(spec.contracts.map((c) => [c.name, contractOutput(output, c)])),
  };
}

/** The JSON text of `spec`'s artifact, formatted as prettier formats the committed file. */
export async function buildArtifact(spec: ArtifactSpec): Promise<string> {
  const config = (await prettier.resolveConfig(spec.path)) ?? {};
  return prettier.format(JSON.stringify(artifactObject(spec)), { ...config, parser: 'json' });
}
