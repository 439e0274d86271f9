/**
 * itp's command line: global options, the command's words and options (node:util parseArgs),
 * then either a command against the gateway (through @itp/client) or an operator group handed to
 * the service's own CLI. Returns the exit code (exit-codes.ts); writes results to stdout and
 * problems, notices and progress to stderr.
 */
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createClient, StepUpRequiredError, type ItpClient } from '@itp/client';
import { resolveSettings, urlForMessages, type CliEnv, type CliSettings } from './config.js';
import { COMMANDS } from './commands/index.js';
import type { Command, CommandResult, OptionValues, OptionsConfig } from './commands/command.js';
import { findAdminCli, type AdminService } from './delegate/find-admin-cli.js';
import { runAdminCli, type RunAdminCli } from './delegate/run-admin-cli.js';
import { UsageError } from './errors.js';
import { EXIT, describeFailure, exitCodeOf } from './exit-codes.js';
import { StdinReader } from './input/read-input.js';
import type { TerminalInput } from './input/read-password.js';
import { startProgress, type ProgressStream } from './output/progress.js';
import { describeStepUp, stepUpReauthentication } from './step-up.js';
import { USAGE } from './usage.js';

export interface OutputStream {
  write(chunk: string): boolean;
}

export interface CliIo {
  env: CliEnv;
  /** The process's working directory (`npm run itp` changes it: see CliSettings.workDir). */
  cwd?: string;
  stdin: Readable;
  stdout: OutputStream;
  stderr: ProgressStream;
}

/** The SDK's step-up callback (step-up.ts): a new token after the challenge, or undefined. */
export type Reauthenticate = NonNullable<Parameters<typeof createClient>[0]['reauthenticate']>;

/** What tests replace: the SDK client and the operator CLIs. */
export interface CliDeps {
  createClient: (settings: CliSettings, reauthenticate: Reauthenticate) => ItpClient;
  findAdminCli: typeof findAdminCli;
  runAdminCli: RunAdminCli;
}

/** The SDK client itp uses: the gateway, the token, and the step-up callback. */
export function sdkClient(settings: CliSettings, reauthenticate: Reauthenticate): ItpClient {
  return createClient({
    baseUrl: settings.url,
    ...(settings.token !== undefined ? { token: settings.token } : {}),
    reauthenticate,
  });
}

const realDeps: CliDeps = {
  createClient: sdkClient,
  findAdminCli,
  runAdminCli,
};

export const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // The password for a step-up (step-up.ts), read from stdin only when the platform asks for it.
  'password-stdin': { type: 'boolean' },
} as const satisfies OptionsConfig;

/** Operator groups and the service whose CLI runs them. */
export const OPERATOR_GROUPS: Readonly<Record<string, AdminService>> = {
  users: 'auth-service',
  clients: 'auth-service',
  kms: 'did-service',
  credentials: 'did-service',
  'sd-jwt-issuer': 'did-service',
};

/** The global options before the first word: `itp --url x --json wallet create …`. */
function splitLeadingOptions(argv: string[]): { leading: string[]; rest: string[] } {
  let i = 0;
  while (i < argv.length) {
    const token = argv[i] as string;
    if (!token.startsWith('-') || token === '-') break;
    i += token === '--url' || token === '--token' ? 2 : 1;
  }
  return { leading: argv.slice(0, i), rest: argv.slice(i) };
}

function parse(
  args: string[],
  options: OptionsConfig,
): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as OptionValues, positionals };
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError((err as Error).message);
    }
    throw err;
  }
}

/** The command whose words start `rest` (the longest such), or a usage error that helps. */
function findCommand(rest: string[]): Command {
  const matches = COMMANDS.filter((c) => c.words.every((word, i) => rest[i] === word));
  const best = matches.sort((a, b) => b.words.length - a.words.length)[0];
  if (best) return best;
  const group = rest[0] as string;
  const subcommands = COMMANDS.filter((c) => c.words[0] === group && c.words.length > 1).map(
    (c) => c.words[1],
  );
  if (subcommands.length > 0) {
    throw new UsageError(
      rest[1] === undefined || rest[1].startsWith('-')
        ? `"${group}" needs a command: ${subcommands.join(', ')}`
        : `unknown command: ${group} ${rest[1]} (${group} has: ${subcommands.join(', ')})`,
    );
  }
  throw new UsageError(`unknown command: ${group}`);
}

function writeResult(result: CommandResult, settings: CliSettings, io: CliIo): number {
  io.stdout.write(settings.json ? `${JSON.stringify(result.json, null, 2)}\n` : result.text);
  if (result.notice) io.stderr.write(`${result.notice}\n`);
  if (result.failure) {
    io.stderr.write(describeFailure(result.failure, settings.url));
    return EXIT.failed;
  }
  return EXIT.ok;
}

async function runOperatorGroup(
  service: AdminService,
  leading: string[],
  rest: string[],
  io: CliIo,
  deps: CliDeps,
): Promise<number> {
  const { values } = parse(leading, GLOBAL_OPTIONS);
  const settings = resolveSettings(values, io.env, io.cwd);
  const cli = deps.findAdminCli(
    service,
    service === 'auth-service' ? settings.authAdminCli : settings.didAdminCli,
  );
  // `itp users --help`: the operator CLIs print their usage for a bare --help only.
  const help =
    values.help === true || (rest.length === 2 && (rest[1] === '--help' || rest[1] === '-h'));
  const args = help
    ? ['--help']
    : settings.json && !rest.includes('--json')
      ? [...rest, '--json']
      : rest;
  return deps.runAdminCli(cli, args, io.env);
}

export async function runCli(argv: string[], io: CliIo, deps: CliDeps = realDeps): Promise<number> {
  let url = urlForMessages(io.env);
  try {
    const { leading, rest } = splitLeadingOptions(argv);
    const group = rest[0];
    if (group !== undefined && Object.hasOwn(OPERATOR_GROUPS, group)) {
      return await runOperatorGroup(
        OPERATOR_GROUPS[group] as AdminService,
        leading,
        rest,
        io,
        deps,
      );
    }
    if (group === undefined || group === 'help') {
      const { values } = parse(leading, GLOBAL_OPTIONS);
      const asked = values.help === true || group === 'help';
      (asked ? io.stdout : io.stderr).write(USAGE);
      return asked ? EXIT.ok : EXIT.usage;
    }
    const command = findCommand(rest);
    const { values, positionals } = parse([...leading, ...rest.slice(command.words.length)], {
      ...GLOBAL_OPTIONS,
      ...command.options,
    });
    if (values.help === true) {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    const settings = resolveSettings(values, io.env, io.cwd);
    url = settings.url;
    const stdin = new StdinReader(io.stdin);
    const notify = (line: string): void => void io.stderr.write(`${line}\n`);
    // Logging in again for a step-up goes through the same client (auth-user takes no bearer).
    const reauthenticate = stepUpReauthentication({
      token: settings.token,
      passwordFromStdin: values['password-stdin'] === true,
      stdin,
      terminal: { input: io.stdin as TerminalInput, output: io.stderr },
      login: (params) => client.auth.login(params),
      notify,
    });
    const client = deps.createClient(settings, reauthenticate);
    const result = await command.run({
      client,
      settings,
      values,
      args: positionals,
      stdin,
      notify,
      progress: (message) => startProgress(io.stderr, message),
    });
    return writeResult(result, settings, io);
  } catch (err) {
    io.stderr.write(
      err instanceof StepUpRequiredError ? describeStepUp(err) : describeFailure(err, url),
    );
    return exitCodeOf(err);
  }
}
