import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@itp/crypto';
import { oneTimeKey, type KvStore, type OneTimeMarks } from '@itp/stores';

/** How long an issued nonce may be used (docs/api.md §11). */
export const SIWE_NONCE_TTL_MS = 5 * 60_000;

/** 128 random bits as 32 alphanumeric characters (EIP-4361: at least 8 alphanumerics). */
export function newSiweNonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The nonces of Sign-In with Ethereum messages: issued into Redis for five minutes
 * (`siwe:nonce:<sha256>`), used once. Use is a GETDEL (of concurrent uses on any instance only one
 * finds it) followed by a mark in the database, so a nonce used once is refused again also when
 * Redis lost the delete (a failover to a replica that had not seen it). A Redis that restarts
 * empty forgets issued nonces: their messages are refused (a new nonce is one request away).
 */
export class SiweNonces {
  constructor(
    private readonly kv: KvStore,
    /** The durable record of nonces already used (SQL one-time marks, like login VPs). */
    private readonly used: OneTimeMarks,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new nonce, valid for SIWE_NONCE_TTL_MS. */
  async issue(): Promise<string> {
    const nonce = newSiweNonce();
    await this.remember(nonce);
    return nonce;
  }

  /** Stores `nonce` as issued (issue() and tests that replay published messages). */
  async remember(nonce: string): Promise<void> {
    await this.kv.set(key(nonce), String(this.clock() + SIWE_NONCE_TTL_MS), {
      ttlMs: SIWE_NONCE_TTL_MS,
    });
  }

  /** Whether `nonce` was issued and is unused (no state change: checked before costly work). */
  async isOpen(nonce: string): Promise<boolean> {
    return (await this.kv.get(key(nonce))) !== null;
  }

  /** Uses `nonce`: true for the one caller that gets it, false when unknown, expired or used. */
  async use(nonce: string): Promise<boolean> {
    const expiresAt = await this.kv.getDel(key(nonce));
    if (expiresAt === null) return false;
    const now = this.clock();
    return this.used.mark(
      oneTimeKey('siwe-nonce', nonce),
      Math.max(now, Number(expiresAt) || now + SIWE_NONCE_TTL_MS),
      now,
    );
  }
}

const key = (nonce: string) => `siwe:nonce:${sha256Hex(nonce)}`;
