/** What every itp command is: its words, its options, and a run that returns what to print. */
import type { ParseArgsConfig } from 'node:util';
import type { ItpClient } from '@itp/client';
import type { CliSettings } from '../config.js';
import type { FailedError } from '../errors.js';
import type { StdinReader } from '../input/read-input.js';
import type { Progress } from '../output/progress.js';

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface CommandContext {
  client: ItpClient;
  settings: CliSettings;
  /** Parsed options (the global ones included). */
  values: OptionValues;
  /** Positional arguments after the command's words. */
  args: string[];
  stdin: StdinReader;
  /** Writes a line to stderr at once (e.g. what the user must do while the command waits). */
  notify(line: string): void;
  /** A progress indicator on stderr (a no-op unless stderr is a terminal). */
  progress(message: string): Progress;
}

export interface CommandResult {
  /** Printed as JSON with --json. */
  json: unknown;
  /** Printed otherwise (a table, a key/value listing, a token, a JSON document). */
  text: string;
  /** A line for stderr (who was logged in, "store this secret now", …); never with secrets. */
  notice?: string;
  /** Printed after the output; the run then exits 1 (e.g. a VC that does not verify). */
  failure?: FailedError;
}

export interface Command {
  /** The command's words, e.g. ['wallet', 'transfer']. */
  words: readonly string[];
  options: OptionsConfig;
  run(ctx: CommandContext): Promise<CommandResult>;
}
