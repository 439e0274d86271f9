/**
 * The internal-API matrix of docs/security.md (which service calls which `/internal/v1/*` endpoint
 * of which other service, with which bearer token), read from the code of apps/<app>/src (not
 * specs, not `testing/`):
 *
 * - served: an internal router is a file that calls `requireInternalToken(…)`; its routes are its
 *   `router.<method>('/path', …)` calls; it is mounted where its factory is called, with the path
 *   literal beside that call (`service.internal.use('/internal/v1/wallet', walletRouter(…))` or
 *   `{ path: '/internal/v1', router: internalRouter(…) }`); endpoint = mount path + route path.
 * - called: every other file of an app that holds a literal `'/internal/v1/…'` path (the internal
 *   API clients' adapters).
 * - the token of a (caller, callee) pair: @itp/crypto's INTERNAL_TOKENS.
 *
 * An endpoint no service calls is listed with "— (no caller)"; a called path no service serves
 * is an error.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { INTERNAL_TOKENS } from '@itp/crypto';
import { cell, parseSource } from './generated-block.js';

export const APPS_DIR = 'apps';

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
/** A whole internal path (not a sentence that names one). */
const INTERNAL_PATH = /^\/internal\/v\d+(\/[\w.-]+)+$/;

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

interface AppSource {
  file: string;
  source: ts.SourceFile;
}

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && ts.isStringLiteralLike(node) ? node.text : undefined;

function visit(node: ts.Node, onNode: (node: ts.Node) => void): void {
  onNode(node);
  ts.forEachChild(node, (child) => visit(child, onNode));
}

const calledName = (call: ts.CallExpression): string | undefined => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
};

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

function appSources(root: string, app: string): AppSource[] {
  return sourceFiles(root, join(APPS_DIR, app, 'src')).map((file) => ({
    file,
    source: parseSource(file, readFileSync(join(root, file), 'utf8')),
  }));
}

/** The functions of a file that call `requireInternalToken` (the internal routers' factories). */
function routerFactories(source: ts.SourceFile): string[] {
  const names = new Set<string>();
  visit(source, (node) => {
    if (!ts.isCallExpression(node) || calledName(node) !== 'requireInternalToken') return;
    for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
      if (ts.isFunctionDeclaration(up) && up.name) {
        names.add(up.name.text);
        break;
      }
    }
  });
  return [...names];
}

/** The path literal mounted beside a call of a router factory, and that literal's node. */
function mountPath(call: ts.CallExpression): ts.Node | undefined {
  const parent = call.parent;
  if (ts.isCallExpression(parent)) {
    return parent.arguments.find((arg) => literalText(arg)?.startsWith('/'));
  }
  if (ts.isPropertyAssignment(parent) && ts.isObjectLiteralExpression(parent.parent)) {
    for (const sibling of parent.parent.properties) {
      if (ts.isPropertyAssignment(sibling) && literalText(sibling.initializer)?.startsWith('/')) {
        return sibling.initializer;
      }
    }
  }
  return undefined;
}

interface Served {
  endpoints: InternalEndpoint[];
  /** Router files and mount path literals (`file:position`): not calls. */
  routerFiles: Set<string>;
  mountLiterals: Set<string>;
}

function served(app: string, sources: readonly AppSource[]): Served {
  const result: Served = { endpoints: [], routerFiles: new Set(), mountLiterals: new Set() };
  for (const router of sources) {
    const factories = routerFactories(router.source);
    if (factories.length === 0) continue;
    result.routerFiles.add(router.file);
    const routes: Array<{ method: string; path: string }> = [];
    visit(router.source, (node) => {
      if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return;
      const method = node.expression.name.text;
      const path = literalText(node.arguments[0]);
      if (ROUTE_METHODS.has(method) && path !== undefined) {
        routes.push({ method: method.toUpperCase(), path });
      }
    });
    const prefixes = new Set<string>();
    for (const { file, source } of sources) {
      visit(source, (node) => {
        if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return;
        if (!factories.includes(node.expression.text) || file === router.file) return;
        const literal = mountPath(node);
        prefixes.add(literalText(literal) ?? '');
        if (literal) result.mountLiterals.add(`${file}:${literal.pos}`);
      });
    }
    if (prefixes.size === 0) {
      throw new Error(`${router.file}: ${factories.join(', ')} is mounted nowhere in ${app}`);
    }
    for (const prefix of prefixes) {
      for (const route of routes) {
        result.endpoints.push({
          callee: app,
          method: route.method,
          path: `${prefix}${route.path}`,
          servedIn: router.file,
        });
      }
    }
  }
  return result;
}

/** The literal `/internal/…` paths of an app's code outside its routers and mount points. */
function calls(app: string, sources: readonly AppSource[], skip: Served): InternalCall[] {
  const found: InternalCall[] = [];
  for (const { file, source } of sources) {
    if (skip.routerFiles.has(file)) continue;
    visit(source, (node) => {
      const path = literalText(node);
      if (path === undefined || !INTERNAL_PATH.test(path)) return;
      if (skip.mountLiterals.has(`${file}:${node.pos}`)) return;
      found.push({ caller: app, path, calledIn: file });
    });
  }
  return found;
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
  const endpoints: InternalEndpoint[] = [];
  const made: InternalCall[] = [];
  for (const app of apps(root)) {
    const sources = appSources(root, app);
    const servedByApp = served(app, sources);
    endpoints.push(...servedByApp.endpoints);
    made.push(...calls(app, sources, servedByApp));
  }
  for (const call of made) {
    if (!endpoints.some((endpoint) => endpoint.path === call.path)) {
      throw new Error(
        `${call.calledIn}: calls ${call.path}, which no app's internal listener serves`,
      );
    }
  }
  const rows: MatrixRow[] = [];
  for (const endpoint of endpoints) {
    const callers = [...new Set(made.filter((c) => c.path === endpoint.path).map((c) => c.caller))];
    if (callers.length === 0) rows.push({ ...endpoint, calledIn: [] });
    for (const caller of callers) {
      const token = tokenOf(caller, endpoint.callee);
      if (!token) {
        throw new Error(
          `${caller} calls ${endpoint.callee}'s ${endpoint.path}, a pair with no INTERNAL_TOKENS entry (@itp/crypto)`,
        );
      }
      const calledIn = made
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
