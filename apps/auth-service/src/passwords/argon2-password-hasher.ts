import { hash, parseOptions, verify, type Options } from '@node-rs/argon2';
import { randomHex } from '@itp/crypto';
import type { PasswordHasher } from './password-hasher.js';

/**
 * OWASP Password Storage Cheat Sheet, argon2id first option: m = 19 MiB, t = 2, p = 1
 * (docs/adr/0007-password-hashing.md). @node-rs/argon2's default algorithm is argon2id (the
 * `Algorithm` const enum cannot be read under isolatedModules; the tests assert `$argon2id$`).
 */
export const OWASP_ARGON2ID: Readonly<Options> = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
});

/** The PasswordHasher adapter over @node-rs/argon2 (native, runs off the event loop). */
export class Argon2PasswordHasher implements PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(private readonly options: Readonly<Options> = OWASP_ARGON2ID) {}

  hash(secret: string): Promise<string> {
    return hash(secret, this.options);
  }

  async verify(hashed: string, secret: string): Promise<boolean> {
    try {
      return await verify(hashed, secret);
    } catch {
      return false;
    }
  }

  needsRehash(hashed: string): boolean {
    try {
      const current = parseOptions(hashed);
      return (
        !hashed.startsWith('$argon2id$') ||
        current.memoryCost !== this.options.memoryCost ||
        current.timeCost !== this.options.timeCost ||
        current.parallelism !== this.options.parallelism ||
        current.outputLen !== this.options.outputLen
      );
    } catch {
      return true;
    }
  }

  async verifyDummy(secret: string): Promise<false> {
    this.dummy ??= this.hash(randomHex(16));
    await this.verify(await this.dummy, secret);
    return false;
  }
}
