/**
 * What commands read besides their options: a secret from stdin (`--password-stdin`,
 * `--secret-key-stdin`) and documents (a VC or VP as JSON, a VC as a compact JWT) from a file or
 * `-` for stdin.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

/**
 * Reads stdin at most once per run: two inputs that both want stdin (a secret and a `-` file)
 * are a usage error rather than a hang.
 */
export class StdinReader {
  private used: string | undefined;

  constructor(private readonly stdin: Readable) {}

  /** All of stdin, without one trailing newline (what `echo` or a here-string adds). */
  async read(purpose: string): Promise<string> {
    if (this.used !== undefined) {
      throw new UsageError(
        `stdin is already used for ${this.used}; it cannot also give ${purpose}`,
      );
    }
    this.used = purpose;
    const chunks: Buffer[] = [];
    for await (const chunk of this.stdin) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    }
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
}

/**
 * A secret given either on the command line (`--<name>`) or on stdin (`--<name>-stdin`); exactly
 * one of them when `required`.
 */
export async function readSecret(
  name: string,
  given: string | undefined,
  fromStdin: boolean | undefined,
  stdin: StdinReader,
  required = true,
): Promise<string | undefined> {
  if (given !== undefined && fromStdin) {
    throw new UsageError(`use either --${name} or --${name}-stdin, not both`);
  }
  const secret = fromStdin ? await stdin.read(`--${name}-stdin`) : given;
  if (secret === undefined) {
    if (required) throw new UsageError(`--${name}-stdin (or --${name}) is required`);
    return undefined;
  }
  if (secret === '') throw new UsageError(`the ${name} is empty`);
  return secret;
}

/** The text of a file, or of stdin for `-` (`what` names it in the stdin-used-twice error). */
export async function readText(
  source: string,
  stdin: StdinReader,
  workDir = '.',
  what = 'a JSON document',
): Promise<string> {
  if (source === '-') return stdin.read(`${what} (-)`);
  try {
    // Relative to the caller's directory (CliSettings.workDir), not to where npm ran itp.
    return await readFile(resolve(workDir, source), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `no such file: ${source}` : `cannot read ${source} (${code ?? err})`,
    );
  }
}

/** A JSON document from a file, or from stdin for `-`. */
export async function readJson(
  source: string,
  stdin: StdinReader,
  workDir = '.',
): Promise<unknown> {
  const text = await readText(source, stdin, workDir);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const where = source === '-' ? 'stdin' : source;
    throw new UsageError(`${where} is not JSON: ${(err as Error).message}`);
  }
}
