import { createHash, randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from '@jest/globals';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ServiceUnavailableError } from '@itp/errors';
import { waitFor } from '@itp/testing';
import { createSigningPool } from './signing-pool.js';

const HALF_N = secp256k1.CURVE.n >> 1n;

describe('createSigningPool (ES256K on worker threads)', () => {
  const pool = createSigningPool(2);
  afterAll(() => pool.close());

  it('makes JOSE ES256K signatures (r ‖ s, low S) that verify under the key, on every thread', async () => {
    const privateKey = randomBytes(32);
    const publicKey = secp256k1.getPublicKey(privateKey, false);
    const inputs = Array.from({ length: 40 }, (_, i) => Buffer.from(`eyJhbGciOiJFUzI1NksifQ.${i}`));
    const signatures = await Promise.all(
      inputs.map((data) => pool.signEs256k(privateKey.toString('hex'), data)),
    );
    signatures.forEach((signature, i) => {
      const bytes = Buffer.from(signature, 'base64url');
      expect(bytes).toHaveLength(64);
      const sig = secp256k1.Signature.fromCompact(bytes);
      expect(sig.s <= HALF_N).toBe(true);
      const digest = createHash('sha256').update(inputs[i]!).digest();
      // noble refuses high-S signatures by default: this also proves the normalisation.
      expect(secp256k1.verify(bytes, digest, publicKey)).toBe(true);
      expect(
        secp256k1.verify(bytes, createHash('sha256').update('other').digest(), publicKey),
      ).toBe(false);
    });
  });

  it('refuses anything but a 32-byte private key, without asking a thread', async () => {
    await expect(pool.signEs256k('abcd', Buffer.from('x'))).rejects.toThrow(/32-byte/);
  });

  it('fails a pending signature with a 503 when its thread dies, and keeps signing after', async () => {
    const workers: Worker[] = [];
    // A clock that stands still: however slow this machine is, the thread's death counts as
    // "right after its start", so the replacement waits (the case under test).
    const lonely = createSigningPool(1, {
      started: (worker) => workers.push(worker),
      now: () => 0,
    });
    try {
      const key = randomBytes(32).toString('hex');
      await lonely.signEs256k(key, Buffer.from('warm'));
      // The thread dies while a signature is pending (a large input keeps it busy).
      const pending = lonely.signEs256k(key, Buffer.alloc(50_000_000, 1));
      await workers[0]!.terminate();
      await expect(pending).rejects.toBeInstanceOf(ServiceUnavailableError);
      // It ended right after its start: replaced after a pause (never a busy restart loop), and
      // until then the pool answers 503 at once instead of waiting on a dead thread.
      await expect(lonely.signEs256k(key, Buffer.from('meanwhile'))).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      await waitFor(() => workers.length >= 2, { what: 'a replacement thread', timeoutMs: 5_000 });
      expect(workers).toHaveLength(2); // replaced
      const next = await lonely.signEs256k(key, Buffer.from('after'));
      expect(Buffer.from(next, 'base64url')).toHaveLength(64);
    } finally {
      await lonely.close();
    }
  });

  it('answers 503 after close', async () => {
    const closed = createSigningPool(1);
    await closed.close();
    await expect(closed.signEs256k('11'.repeat(32), Buffer.from('x'))).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
