import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { narrowBigint } from './int8.js';

/**
 * better-sqlite3 either rounds integers above 2^53 silently or (with safe integers on) returns
 * every INTEGER as a `bigint`. The SQLite connection is opened with safe integers on and this
 * plugin narrows each exact value back to a `number`, so rows look the same as on PostgreSQL
 * (see parseInt8).
 */
export class SafeIntegerPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { result } = args;
    if (result.rows.length === 0) return result;
    return { ...result, rows: result.rows.map(narrowRow) };
  }
}

function narrowRow(row: UnknownRow): UnknownRow {
  let copy: UnknownRow | undefined;
  for (const key in row) {
    const value = row[key];
    if (typeof value === 'bigint') {
      copy ??= { ...row };
      copy[key] = narrowBigint(value);
    }
  }
  return copy ?? row;
}
