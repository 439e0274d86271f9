import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { benchScenarios, renderBenchTable } from './bench-table.js';
import { e2eSuites, renderE2eTable } from './e2e-table.js';
import { ROOT } from './error-tables.js';
import { regenerateTable, tableMarkers } from './generated-block.js';
import { internalApiMatrix, renderInternalApiMatrix } from './internal-api-matrix.js';
import { TABLES } from './tables.js';

const scenarioSource = (comment: string, id: number, name = 'first') => `
/** ${comment} */
export async function firstScenario(): Promise<unknown> {
  const helper = () => ({ id: 99, name: 'not the scenario' });
  helper();
  return { id: ${id}, name: '${name}', figures: [] };
}
/**
 * 2. The second: a longer comment
 * on two lines.
 */
async function secondScenario(): Promise<unknown> {
  return { id: 2, name: 'second' };
}
export const SCENARIOS = [firstScenario, secondScenario];
`;

describe('bench scenario table', () => {
  it('reads each scenario of SCENARIOS, in order, with the name it reports and its doc comment', () => {
    const scenarios = benchScenarios(scenarioSource('1. The first | a pipe.', 1));
    expect(scenarios).toEqual([
      { id: 1, name: 'first', summary: 'The first | a pipe.' },
      { id: 2, name: 'second', summary: 'The second: a longer comment on two lines.' },
    ]);
    expect(renderBenchTable(scenarios).split('\n').slice(2)).toEqual([
      '| 1 | first | The first \\| a pipe. |',
      '| 2 | second | The second: a longer comment on two lines. |',
    ]);
  });

  it('refuses a scenario whose comment, or whose result, names another number', () => {
    expect(() => benchScenarios(scenarioSource('3. Misnumbered.', 1))).toThrow(
      /firstScenario is scenario 1, its doc comment says 3/,
    );
    expect(() => benchScenarios(scenarioSource('1. Right comment.', 4))).toThrow(
      /must return \{ id: 1, name: '…' \}/,
    );
    expect(() => benchScenarios(scenarioSource('No number.', 1))).toThrow(/needs a doc comment/);
  });

  it('reads a scenario imported from a file of its own, and refuses one it cannot find', () => {
    const main = `import { thirdScenario as third } from './scenario-third.js';
${scenarioSource('1. The first.', 1)}`.replace(
      'SCENARIOS = [firstScenario, secondScenario]',
      'SCENARIOS = [firstScenario, secondScenario, third]',
    );
    const modules = (specifier: string) =>
      specifier === './scenario-third.js'
        ? {
            fileName: 'scenario-third.ts',
            text: `/** The module. */
import x from 'y';
/** 3. The third, in its own file. */
export async function thirdScenario() {
  return { id: 3, name: 'third' };
}`,
          }
        : undefined;
    expect(benchScenarios(main, 'scenarios.ts', modules)[2]).toEqual({
      id: 3,
      name: 'third',
      summary: 'The third, in its own file.',
    });
    expect(() => benchScenarios(main, 'scenarios.ts')).toThrow(
      /SCENARIOS names third, no function of this file or of a module it imports/,
    );
  });
});

describe('internal-API matrix', () => {
  const root = mkdtempSync(join(tmpdir(), 'itp-docs-tables-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write(
    'apps/token-rpc/src/app.ts',
    `import { walletRouter } from './http/internal-router.js';
     service.internal.use('/internal/v1/wallet', walletRouter(wallets));`,
  );
  write(
    'apps/token-rpc/src/http/internal-router.ts',
    `export function walletRouter() {
       router.use(requireInternalToken(token));
       router.post('/sign-jws', handler);
       router.get('/unused', handler);
     }`,
  );
  write(
    'apps/did-service/src/wallet/client.ts',
    `// not a call: '/internal/v1/wallet/unused'
     export const sign = () => client.post('/internal/v1/wallet/sign-jws', {});`,
  );
  write(
    'apps/auth-service/src/users/wire.ts',
    `export const wire = () => ({ internalRoutes: [{ path: '/internal/v1', router: usersRouter(deps) }] });`,
  );
  write(
    'apps/auth-service/src/http/users-router.ts',
    `export function usersRouter(deps) {
       const router = express.Router();
       router.use(requireInternalToken(deps.token));
       router.post('/users/status', handler);
       return router;
     }`,
  );
  write(
    'apps/did-service/src/users/status.ts',
    `const PATH = '/internal/v1/users/status';
     export const status = () => client.post(PATH, {});`,
  );
  write('apps/did-service/src/wallet/client.spec.ts', `post('/internal/v1/wallet/unused');`);
  write('apps/did-service/src/testing/stand-in.ts', `post('/internal/v1/wallet/unused');`);

  it('lists each served endpoint with the apps whose code names it, the pair’s token, and endpoints nobody calls', () => {
    const rows = internalApiMatrix(root);
    expect(rows).toEqual([
      {
        caller: 'did-service',
        callee: 'auth-service',
        method: 'POST',
        path: '/internal/v1/users/status',
        token: 'INTERNAL_TOKEN_DID_TO_AUTH',
        calledIn: ['apps/did-service/src/users/status.ts'],
        servedIn: 'apps/auth-service/src/http/users-router.ts',
      },
      {
        caller: 'did-service',
        callee: 'token-rpc',
        method: 'POST',
        path: '/internal/v1/wallet/sign-jws',
        token: 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC',
        calledIn: ['apps/did-service/src/wallet/client.ts'],
        servedIn: 'apps/token-rpc/src/http/internal-router.ts',
      },
      {
        callee: 'token-rpc',
        method: 'GET',
        path: '/internal/v1/wallet/unused',
        calledIn: [],
        servedIn: 'apps/token-rpc/src/http/internal-router.ts',
      },
    ]);
    expect(renderInternalApiMatrix(rows)).toContain(
      '| — (no caller) | token-rpc | `GET /internal/v1/wallet/unused` | — | — |',
    );
  });

  it('refuses a call of a path no internal listener serves', () => {
    write('apps/did-service/src/wallet/other.ts', `post('/internal/v1/wallet/gone');`);
    try {
      expect(() => internalApiMatrix(root)).toThrow(
        'apps/did-service/src/wallet/other.ts: calls /internal/v1/wallet/gone',
      );
    } finally {
      rmSync(join(root, 'apps/did-service/src/wallet/other.ts'));
    }
  });

  it('refuses an internal router mounted nowhere', () => {
    write(
      'apps/token-rpc/src/http/orphan-router.ts',
      `export function orphanRouter() { router.use(requireInternalToken(t)); router.post('/x', h); }`,
    );
    try {
      expect(() => internalApiMatrix(root)).toThrow(
        'apps/token-rpc/src/http/orphan-router.ts: orphanRouter is mounted nowhere in token-rpc',
      );
    } finally {
      rmSync(join(root, 'apps/token-rpc/src/http/orphan-router.ts'));
    }
  });

  it('every internal endpoint of this repository has a caller (an endpoint nobody calls is removed)', () => {
    const uncalled = internalApiMatrix(ROOT).filter((row) => !row.caller);
    expect(uncalled.map((row) => `${row.callee} ${row.path}`)).toEqual([]);
  });
});

describe('e2e suite table', () => {
  it('has one row per entry of SUITES, each with its file and doc comment', () => {
    const suites = e2eSuites(ROOT);
    expect(suites.length).toBeGreaterThan(0);
    for (const suite of suites) expect(suite.summary.length).toBeGreaterThan(10);
    expect(
      renderE2eTable([{ name: 'xSuite', file: 'e2e/src/suites/x.suite.ts', summary: 'X.' }]),
    ).toBe(
      [
        '| suite | what it proves through the gateway |',
        '| --- | --- |',
        '| `x.suite.ts` | X. |',
      ].join('\n'),
    );
  });
});

describe('tables written from code', () => {
  it('refuses a document without the markers', async () => {
    await expect(regenerateTable(TABLES[0]!, ROOT, '# nothing here\n')).rejects.toThrow(
      tableMarkers(TABLES[0]!.name).start,
    );
  });

  for (const table of TABLES) {
    it(`${table.file} matches ${table.sources} (run npm run docs:tables after changing them)`, async () => {
      const text = readFileSync(join(ROOT, table.file), 'utf8');
      expect(await regenerateTable(table, ROOT, text)).toBe(text);
    });
  }
});
