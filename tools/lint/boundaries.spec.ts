/**
 * The workspace's module boundaries, as `npm run lint` enforces them (eslint.config.js run through
 * ESLint's Node API on small sources placed, by file path, inside each kind of project): tools
 * import an app only through an entry point the app declares in its package.json `exports`;
 * apps never import apps; libs never import apps or tools.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const BOUNDARY_RULES = new Set(['@nx/enforce-module-boundaries', 'no-restricted-imports']);

let eslint: ESLint;

beforeAll(() => {
  // The boundary rule reads Nx's cached project graph (what `npm run lint` builds first).
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['show', 'projects'], {
    cwd: repoRoot,
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    stdio: 'ignore',
  });
  eslint = new ESLint({ cwd: repoRoot });
}, 60_000);

/** The boundary errors of `source` as if it were the file `path` (from the repository root). */
async function boundaryErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(repoRoot, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId) && m.severity === 2)
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const use = (specifier: string, name: string): string =>
  `import { ${name} } from '${specifier}';\nexport const probe = ${name};\n`;

const DECLARED_ENTRY_POINT_HINT = expect.stringMatching(
  /^no-restricted-imports: .*Tools reach an app only through an entry point it declares in its package\.json `exports`/,
);

describe('tools (type:tool)', () => {
  const inTools = 'tools/deploy/boundary-probe.ts';

  it('import a declared entry point of an app by package name', async () => {
    expect(await boundaryErrors(inTools, use('@itp/gateway/upstreams', 'upstreamsFrom'))).toEqual(
      [],
    );
    expect(await boundaryErrors(inTools, use('@itp/token-rpc/testing', 'startTokenApp'))).toEqual(
      [],
    );
  });

  it('import libs', async () => {
    expect(await boundaryErrors(inTools, use('@itp/stores', 'migrateToLatest'))).toEqual([]);
  });

  it('never import app code by relative path', async () => {
    const errors = await boundaryErrors(
      inTools,
      use('../../apps/gateway/src/upstreams/upstreams.js', 'upstreamsFrom'),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        DECLARED_ENTRY_POINT_HINT,
        expect.stringMatching(/^@nx\/enforce-module-boundaries: /),
      ]),
    );
  });

  it('never import an undeclared subpath of an app (@itp/<app>/src/…) nor the app itself', async () => {
    // Nx cannot map an undeclared subpath to its project: no-restricted-imports names it.
    for (const specifier of [
      '@itp/gateway/src/upstreams/upstreams.js',
      '@itp/auth-service/src/dev/demo-data.js',
      '@itp/token-rpc/testing/token-test-kit',
      '@itp/did-service',
    ]) {
      const errors = await boundaryErrors(inTools, use(specifier, 'anything'));
      expect({ specifier, errors }).toEqual({
        specifier,
        errors: expect.arrayContaining([DECLARED_ENTRY_POINT_HINT]),
      });
    }
  });

  it('hold to the same rule in bench/ and resilience/', async () => {
    for (const path of ['bench/src/boundary-probe.ts', 'resilience/src/boundary-probe.ts']) {
      expect(
        await boundaryErrors(path, use('@itp/gateway/src/upstreams/upstreams.js', 'x')),
      ).toEqual(expect.arrayContaining([DECLARED_ENTRY_POINT_HINT]));
    }
  });
});

describe('apps (type:app)', () => {
  it('never import another app, not even its declared entry points', async () => {
    const errors = await boundaryErrors(
      'apps/auth-service/src/boundary-probe.ts',
      use('@itp/token-rpc/testing', 'startTokenApp'),
    );
    expect(errors).toEqual([expect.stringMatching(/^@nx\/enforce-module-boundaries: /)]);
  });
});

describe('libs (type:lib)', () => {
  const inLib = 'libs/stores/src/boundary-probe.ts';

  it('never import an app', async () => {
    expect(await boundaryErrors(inLib, use('@itp/gateway/upstreams', 'upstreamsFrom'))).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: /),
    ]);
  });

  it('never import tools', async () => {
    expect(
      await boundaryErrors(inLib, use('../../../tools/deploy/k8s-manifests.js', 'anything')),
    ).toEqual([expect.stringMatching(/^@nx\/enforce-module-boundaries: /)]);
  });
});
