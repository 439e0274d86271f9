/**
 * The blocks of documentation written from code by `npm run docs:tables`: each between two
 * markers, rewritten whole, formatted as prettier would; tables.spec.ts fails when a document
 * drifts from its code.
 *
 *   <!-- generated:tables:bench (npm run docs:tables) -->
 *   …table…
 *   <!-- /generated:tables:bench -->
 */
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';

export interface GeneratedTable {
  /** Marker name. */
  name: string;
  /** The document, relative to the repository root. */
  file: string;
  /** The code it is written from (relative paths), named in the spec's failure. */
  sources: string;
  render: (root: string) => string;
}

export function tableMarkers(name: string): { start: string; end: string } {
  return {
    start: `<!-- generated:tables:${name} (npm run docs:tables) -->`,
    end: `<!-- /generated:tables:${name} -->`,
  };
}

/** The document's text with the table's block replaced, formatted as prettier would. */
export async function regenerateTable(
  table: GeneratedTable,
  root: string,
  text: string,
): Promise<string> {
  const { start, end } = tableMarkers(table.name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`${table.file}: markers for "${table.name}" are missing (${start} … ${end})`);
  }
  const next = `${text.slice(0, from + start.length)}\n\n${table.render(root)}\n\n${text.slice(to)}`;
  const file = join(root, table.file);
  const options = (await resolveConfig(file)) ?? {};
  return format(next, { ...options, filepath: file });
}

/** A table cell: pipes escaped, line breaks folded. */
export const cell = (text: string) => text.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');

export function parseSource(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/**
 * The text of the `/** … *\/` comment right before `node` (its last one), on one line, or
 * undefined when it has none.
 */
export function docComment(node: ts.Node, source: ts.SourceFile): string | undefined {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (!last) return undefined;
  const raw = source.text.slice(last.pos, last.end);
  if (!raw.startsWith('/**')) return undefined;
  return raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
    .filter((line) => line.length > 0)
    .join(' ');
}

/** The names of the identifiers of `export const <name> = [a, b, …]` (an optional `as const`). */
export function exportedIdentifierList(source: ts.SourceFile, name: string): string[] {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== name) continue;
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) {
        init = init.expression;
      }
      if (!init || !ts.isArrayLiteralExpression(init)) {
        throw new Error(`${source.fileName}: ${name} is not an array literal`);
      }
      return init.elements.map((element) => {
        if (!ts.isIdentifier(element)) {
          throw new Error(`${source.fileName}: ${name} holds ${element.getText()}, not a name`);
        }
        return element.text;
      });
    }
  }
  throw new Error(`${source.fileName}: no \`export const ${name} = [...]\``);
}
