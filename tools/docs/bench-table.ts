/**
 * bench/README.md's scenario table, from bench/src/scenarios.ts: one row per entry of `SCENARIOS`,
 * in its order (the number `--only` takes), with the `name` the scenario reports and its doc
 * comment (`/** <n>. what it measures, beside which reference *\/`). A scenario imported from a
 * file of its own (`import { xScenario } from './scenario-x.js'`) is read from that file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { cell, docComment, exportedIdentifierList, parseSource } from './generated-block.js';

export const BENCH_SCENARIOS_FILE = 'bench/src/scenarios.ts';

export interface BenchScenario {
  /** Its number: its position in SCENARIOS, from 1. */
  id: number;
  /** The name its result carries (`name: '…'` of the object it returns). */
  name: string;
  /** Its doc comment without the leading number. */
  summary: string;
}

/** The `id` and `name` literals of the `return { id, name, … }` objects in a function. */
function returnedIdentity(fn: ts.FunctionDeclaration): Array<{ id: number; name: string }> {
  const found: Array<{ id: number; name: string }> = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isReturnStatement(node) &&
      node.expression &&
      ts.isObjectLiteralExpression(node.expression)
    ) {
      let id: number | undefined;
      let name: string | undefined;
      for (const property of node.expression.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
        const value = property.initializer;
        if (property.name.text === 'id' && ts.isNumericLiteral(value)) id = Number(value.text);
        if (property.name.text === 'name' && ts.isStringLiteralLike(value)) name = value.text;
      }
      if (id !== undefined && name !== undefined) found.push({ id, name });
    }
    // Not into nested functions: their returns are not the scenario's.
    if (!ts.isFunctionLike(node) || node === fn) ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

/** The top-level function declarations of a source file, by name. */
function functionsOf(source: ts.SourceFile): Map<string, ts.FunctionDeclaration> {
  const functions = new Map<string, ts.FunctionDeclaration>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      functions.set(statement.name.text, statement);
    }
  }
  return functions;
}

/** The module specifier each name is imported from (`import { a as b } from 'x'`: b → x, a). */
function importsOf(source: ts.SourceFile): Map<string, { specifier: string; imported: string }> {
  const imports = new Map<string, { specifier: string; imported: string }>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      imports.set(element.name.text, {
        specifier: statement.moduleSpecifier.text,
        imported: (element.propertyName ?? element.name).text,
      });
    }
  }
  return imports;
}

/**
 * The scenarios of a scenarios module's source text, checked against their own numbers.
 * `readModule` gives the text of a relative module it imports a scenario from (`./x.js`), or
 * undefined when there is none.
 */
export function benchScenarios(
  text: string,
  fileName = BENCH_SCENARIOS_FILE,
  readModule: (specifier: string) => { fileName: string; text: string } | undefined = () =>
    undefined,
): BenchScenario[] {
  const source = parseSource(fileName, text);
  const functions = functionsOf(source);
  const imports = importsOf(source);
  const find = (fnName: string): { fn: ts.FunctionDeclaration; source: ts.SourceFile } => {
    const local = functions.get(fnName);
    if (local) return { fn: local, source };
    const imported = imports.get(fnName);
    const module = imported?.specifier.startsWith('.') ? readModule(imported.specifier) : undefined;
    const other = module ? parseSource(module.fileName, module.text) : undefined;
    const fn = other ? functionsOf(other).get(imported!.imported) : undefined;
    if (!fn || !other) {
      throw new Error(
        `${fileName}: SCENARIOS names ${fnName}, no function of this file or of a module it imports`,
      );
    }
    return { fn, source: other };
  };
  return exportedIdentifierList(source, 'SCENARIOS').map((fnName, index) => {
    const id = index + 1;
    const { fn, source: fnSource } = find(fnName);
    const comment = docComment(fn, fnSource);
    const numbered = comment?.match(/^(\d+)\.\s+(.+)$/);
    if (!numbered) {
      throw new Error(
        `${fileName}: ${fnName} needs a doc comment "/** ${id}. what it measures */"`,
      );
    }
    if (Number(numbered[1]) !== id) {
      throw new Error(
        `${fileName}: ${fnName} is scenario ${id}, its doc comment says ${numbered[1]}`,
      );
    }
    const identities = returnedIdentity(fn);
    const names = [...new Set(identities.map((identity) => identity.name))];
    if (names.length !== 1 || identities.some((identity) => identity.id !== id)) {
      throw new Error(
        `${fileName}: ${fnName} is scenario ${id}; it must return { id: ${id}, name: '…' } ` +
          `(found ${JSON.stringify(identities)})`,
      );
    }
    return { id, name: names[0]!, summary: numbered[2]! };
  });
}

export function renderBenchTable(scenarios: readonly BenchScenario[]): string {
  const rows = scenarios.map((s) => `| ${s.id} | ${cell(s.name)} | ${cell(s.summary)} |`);
  return [
    '| #   | scenario | what it measures, beside which reference (same run) |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** A relative module of `fromFile` (`./x.js` → `x.ts` beside it), read from `root`. */
export function moduleReader(root: string, fromFile: string) {
  return (specifier: string): { fileName: string; text: string } | undefined => {
    const fileName = join(dirname(fromFile), specifier.replace(/\.js$/, '.ts'));
    try {
      return { fileName, text: readFileSync(join(root, fileName), 'utf8') };
    } catch {
      return undefined;
    }
  };
}

export const renderBenchReadmeTable = (root: string): string =>
  renderBenchTable(
    benchScenarios(
      readFileSync(join(root, BENCH_SCENARIOS_FILE), 'utf8'),
      BENCH_SCENARIOS_FILE,
      moduleReader(root, BENCH_SCENARIOS_FILE),
    ),
  );
