/**
 * The internal-API matrix of docs/security.md (which service calls which `/internal/v1/*` endpoint
 * of which other service, with which bearer token), read from the code:
 *
 * - served: each app's `src/app.ts` mounts routers on its internal listener
 *   (`service.internal.use([prefix,] someRouter(…))`); each such router's file declares its routes
 *   (`router.post('/path', …)`); endpoint = prefix + path.
 * - called: every other source file of an app (not a spec, not `src/testing/`) that holds a
 *   literal `'/internal/v1/…'` path (the internal API clients' adapters).
 * - the token of a (caller, callee) pair: @itp/crypto's INTERNAL_TOKENS.
 *
 * An endpoint no service calls is listed with "—" as its caller; a called path no service serves
 * is an error.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { INTERNAL_TOKENS } from '@itp/crypto';
import { cell, parseSource } from './generated-block.js';

export const APPS_DIR = 'apps';

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export interface InternalEndpoint {
  /** The app that serves it (its folder under apps/). */
  callee: string;
  method: string;
  path: string;
  /** The router file that declares it, relative to the repository root. */
  servedIn: string;
}

export interface InternalCall {
  caller: string;
  path: string;
  /** The file that makes the call, relative to the repository root. */
  calledIn: string;
}

export interface MatrixRow extends InternalEndpoint {
  /** The calling app, or undefined for an endpoint nobody calls. */
  caller?: string;
  calledIn: string[];
  /** The bearer token of the pair (INTERNAL_TOKENS), when there is a caller. */
  token?: string;
}

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && ts.isStringLiteralLike(node) ? node.text : undefined;

function visitCalls(source: ts.SourceFile, onCall: (call: ts.CallExpression) => void): void {
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) onCall(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const propertyName = (call: ts.CallExpression): string | undefined =>
  ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : undefined;

/** Where each name imported by a relative path comes from (a `.ts` file under root). */
function importedFiles(source: ts.SourceFile, fileDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const specifier = literalText(statement.moduleSpecifier);
    const bindings = statement.importClause?.namedBindings;
    if (!specifier?.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      files.set(element.name.text, join(fileDir, specifier.replace(/\.js$/, '.ts')));
    }
  }
  return files;
}

function read(root: string, file: string): ts.SourceFile {
  return parseSource(file, readFileSync(join(root, file), 'utf8'));
}

/** The routes of the routers an app mounts on its internal listener. */
export function servedEndpoints(root: string, app: string): InternalEndpoint[] {
  const appFile = join(APPS_DIR, app, 'src', 'app.ts');
  if (!existsSync(join(root, appFile))) return [];
  const source = read(root, appFile);
  const imports = importedFiles(source, dirname(appFile));
  const endpoints: InternalEndpoint[] = [];
  visitCalls(source, (call) => {
    const target = call.expression;
    if (
      !ts.isPropertyAccessExpression(target) ||
      target.name.text !== 'use' ||
      !ts.isPropertyAccessExpression(target.expression) ||
      target.expression.name.text !== 'internal'
    ) {
      return;
    }
    const prefix = literalText(call.arguments[0]);
    const mounted = call.arguments[prefix === undefined ? 0 : 1];
    if (!mounted || !ts.isCallExpression(mounted) || !ts.isIdentifier(mounted.expression)) {
      throw new Error(`${appFile}: ${call.getText()} mounts no router made by a named function`);
    }
    const routerFile = imports.get(mounted.expression.text);
    if (!routerFile) {
      throw new Error(`${appFile}: ${mounted.expression.text} is not imported from this app`);
    }
    visitCalls(read(root, routerFile), (route) => {
      const method = propertyName(route);
      const path = literalText(route.arguments[0]);
      if (!method || !ROUTE_METHODS.has(method) || path === undefined) return;
      endpoints.push({
        callee: app,
        method: method.toUpperCase(),
        path: `${prefix ?? ''}${path}`,
        servedIn: routerFile,
      });
    });
  });
  return endpoints;
}

function sourceFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'node_modules') {
        files.push(...sourceFiles(root, path));
      }
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
      files.push(path);
    }
  }
  return files;
}

/** A whole internal path (not a sentence that names one). */
const INTERNAL_PATH = /^\/internal\/v\d+(\/[\w.-]+)+$/;

/** The literal `/internal/…` paths in an app's code, outside its app.ts and the given files. */
export function internalCalls(
  root: string,
  app: string,
  skip: ReadonlySet<string>,
): InternalCall[] {
  const calls: InternalCall[] = [];
  for (const file of sourceFiles(root, join(APPS_DIR, app, 'src'))) {
    if (skip.has(file) || file === join(APPS_DIR, app, 'src', 'app.ts')) continue;
    const visit = (node: ts.Node): void => {
      const path = literalText(node);
      if (path !== undefined && INTERNAL_PATH.test(path)) {
        calls.push({ caller: app, path, calledIn: file });
      }
      ts.forEachChild(node, visit);
    };
    visit(read(root, file));
  }
  return calls;
}

export function apps(root: string): string[] {
  return readdirSync(join(root, APPS_DIR), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, APPS_DIR, entry.name, 'src')))
    .map((entry) => entry.name)
    .sort();
}

const tokenOf = (caller: string, callee: string): string | undefined =>
  Object.entries(INTERNAL_TOKENS).find(
    ([, pair]) => pair.caller === caller && pair.callee === callee,
  )?.[0];

/** Every internal endpoint with its callers, from the sources under root. */
export function internalApiMatrix(root: string): MatrixRow[] {
  const names = apps(root);
  const endpoints = names.flatMap((app) => servedEndpoints(root, app));
  const routerFiles = new Set(endpoints.map((endpoint) => endpoint.servedIn));
  const calls = names.flatMap((app) => internalCalls(root, app, routerFiles));
  for (const call of calls) {
    if (!endpoints.some((endpoint) => endpoint.path === call.path)) {
      throw new Error(
        `${call.calledIn}: calls ${call.path}, which no app's internal listener serves`,
      );
    }
  }
  const rows: MatrixRow[] = [];
  for (const endpoint of endpoints) {
    const callers = [
      ...new Set(calls.filter((c) => c.path === endpoint.path).map((c) => c.caller)),
    ];
    if (callers.length === 0) rows.push({ ...endpoint, calledIn: [] });
    for (const caller of callers) {
      const token = tokenOf(caller, endpoint.callee);
      if (!token) {
        throw new Error(
          `${caller} calls ${endpoint.callee}'s ${endpoint.path}, a pair with no INTERNAL_TOKENS entry (@itp/crypto)`,
        );
      }
      const calledIn = calls
        .filter((c) => c.caller === caller && c.path === endpoint.path)
        .map((c) => c.calledIn);
      rows.push({ ...endpoint, caller, token, calledIn: [...new Set(calledIn)].sort() });
    }
  }
  return rows.sort(
    (a, b) =>
      Number(a.caller === undefined) - Number(b.caller === undefined) ||
      (a.caller ?? '').localeCompare(b.caller ?? '') ||
      a.callee.localeCompare(b.callee) ||
      a.path.localeCompare(b.path),
  );
}

export function renderInternalApiMatrix(rows: readonly MatrixRow[]): string {
  const code = (text: string) => `\`${cell(text)}\``;
  const lines = rows.map((row) =>
    [
      row.caller ?? '— (no caller)',
      row.callee,
      code(`${row.method} ${row.path}`),
      row.token ? code(row.token) : '—',
      row.calledIn.map(code).join(', ') || '—',
      code(row.servedIn),
    ].join(' | '),
  );
  return [
    '| caller | callee (internal listener) | endpoint | bearer token | called in | served by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...lines.map((line) => `| ${line} |`),
  ].join('\n');
}

export const renderSecurityMatrix = (root: string): string =>
  renderInternalApiMatrix(internalApiMatrix(root));
