/**
 * e2e/README.md's suite table, from e2e/src/suites/index.ts: one row per entry of `SUITES`, in the
 * order every setup runs them, with the suite's file and the doc comment of its exported `Suite`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import ts from 'typescript';
import { cell, docComment, exportedIdentifierList, parseSource } from './generated-block.js';

export const E2E_SUITES_INDEX = 'e2e/src/suites/index.ts';

export interface E2eSuite {
  /** The exported name, as SUITES lists it. */
  name: string;
  /** Its file, relative to the repository root. */
  file: string;
  /** The doc comment of its export. */
  summary: string;
}

/** Where each imported name comes from (`./auth.suite.js` → `<dir>/auth.suite.ts`). */
function importedFiles(source: ts.SourceFile, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) {
      continue;
    }
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      files.set(element.name.text, join(dir, specifier.replace(/\.js$/, '.ts')));
    }
  }
  return files;
}

/** The doc comment of `export const <name>` in a source file. */
function exportDoc(source: ts.SourceFile, name: string): string | undefined {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declares = statement.declarationList.declarations.some(
      (d) => ts.isIdentifier(d.name) && d.name.text === name,
    );
    if (declares) return docComment(statement, source);
  }
  return undefined;
}

/** The suites `SUITES` lists, each with its file and doc comment, read from the sources under root. */
export function e2eSuites(root: string): E2eSuite[] {
  const indexDir = dirname(E2E_SUITES_INDEX);
  const index = parseSource(E2E_SUITES_INDEX, readFileSync(join(root, E2E_SUITES_INDEX), 'utf8'));
  const files = importedFiles(index, indexDir);
  return exportedIdentifierList(index, 'SUITES').map((name) => {
    const file = files.get(name);
    if (!file || !existsSync(join(root, file))) {
      throw new Error(`${E2E_SUITES_INDEX}: SUITES names ${name}, imported from no suite file`);
    }
    const source = parseSource(file, readFileSync(join(root, file), 'utf8'));
    const summary = exportDoc(source, name);
    if (!summary) {
      throw new Error(`${file}: \`export const ${name}\` needs a doc comment (what it proves)`);
    }
    return { name, file, summary };
  });
}

export function renderE2eTable(suites: readonly E2eSuite[]): string {
  const rows = suites.map((s) => `| \`${basename(s.file)}\` | ${cell(s.summary)} |`);
  return ['| suite | what it proves through the gateway |', '| --- | --- |', ...rows].join('\n');
}

export const renderE2eReadmeTable = (root: string): string => renderE2eTable(e2eSuites(root));
