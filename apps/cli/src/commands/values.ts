/** Reading parsed option values and positionals with clear usage errors. */
import { ConfigError, UsageError } from '../errors.js';
import type { CommandContext, OptionValues } from './command.js';

export function optionalString(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a value`);
  if (value.trim() === '') throw new UsageError(`--${name} is empty`);
  return value;
}

export function requiredString(values: OptionValues, name: string): string {
  const value = optionalString(values, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

export function stringList(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== 'string' || item.trim() === '') {
      throw new UsageError(`--${name} needs a value`);
    }
    return item;
  });
}

export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** A positive whole number of seconds (e.g. --timeout). */
export function optionalSeconds(values: OptionValues, name: string): number | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number of seconds ≥ 1, got "${value}"`);
  }
  return Number(value);
}

/** Exactly `names.length` positionals, e.g. `<address>`. */
export function positionals(ctx: CommandContext, names: string[]): string[] {
  if (ctx.args.length !== names.length) {
    const expected = names.map((n) => `<${n}>`).join(' ') || 'no arguments';
    const got = ctx.args.length === 0 ? 'none' : ctx.args.map((a) => `"${a}"`).join(' ');
    throw new UsageError(`expected ${expected}, got ${got}`);
  }
  return ctx.args;
}

/** The login token for commands that act for a user. */
export function requireToken(ctx: CommandContext, command: string): string {
  if (ctx.settings.token === undefined) {
    throw new ConfigError(
      `${command} acts for a user: give a login token with --token or ITP_TOKEN ` +
        '(TOKEN=$(itp login --id <id> --password-stdin))',
    );
  }
  return ctx.settings.token;
}
