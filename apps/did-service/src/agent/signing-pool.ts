import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '@itp/errors';

/**
 * The code of one signing thread: ES256K (ECDSA on secp256k1 over SHA-256, JOSE r ‖ s, low S)
 * with node:crypto, so that the thread needs no module of the app (it runs the same in the
 * dev bundle, the image bundle and the tests). Private keys arrive as 32-byte scalars and are
 * turned into OpenSSL key objects once per key.
 */
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const { createPrivateKey, sign } = require('node:crypto');
// secp256k1 group order, and the SEC1 ECPrivateKey DER around a 32-byte scalar (no public key).
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const DER_HEAD = Buffer.from('302e0201010420', 'hex');
const DER_TAIL = Buffer.from('a00706052b8104000a', 'hex');
const keys = new Map();
function keyOf(privateKeyHex) {
  let key = keys.get(privateKeyHex);
  if (!key) {
    const der = Buffer.concat([DER_HEAD, Buffer.from(privateKeyHex, 'hex'), DER_TAIL]);
    key = createPrivateKey({ key: der, format: 'der', type: 'sec1' });
    if (keys.size >= 1000) keys.clear();
    keys.set(privateKeyHex, key);
  }
  return key;
}
parentPort.on('message', ({ id, privateKeyHex, data }) => {
  try {
    const signature = sign('sha256', data, { key: keyOf(privateKeyHex), dsaEncoding: 'ieee-p1363' });
    const s = BigInt('0x' + signature.subarray(32).toString('hex'));
    if (s > N >> 1n) signature.set(Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex'), 32);
    parentPort.postMessage({ id, signature: signature.toString('base64url') });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Job {
  resolve: (signature: string) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
  /** False once the thread ended; its slot answers 503 until the replacement has started. */
  alive: boolean;
}

/** A thread that ends sooner than this after its start is replaced only after this long. */
const RESPAWN_DELAY_MS = 1000;

/** What tests may set: a hook per started thread, and the clock that times a thread's life. */
export interface SigningPoolHooks {
  started?: (worker: Worker) => void;
  /** Milliseconds now (default `Date.now`): whether a thread ended "right after its start". */
  now?: () => number;
}

/** Signs ES256K JWS inputs. */
export interface Es256kSigner {
  /** base64url(r ‖ s) of `data` under the secp256k1 key `privateKeyHex` (64 hex digits). */
  signEs256k(privateKeyHex: string, data: Uint8Array): Promise<string>;
  close(): Promise<void>;
}

/**
 * ES256K signing on `threads` worker threads, round robin (CPU-bound crypto spread over the
 * cores; ADR 0018). The event loop only posts the signing input and reads 86 characters
 * back, so it is free for the next request while a thread signs. A thread that dies fails its
 * pending signatures with a 503 and is replaced; `close()` ends all of them.
 */
export function createSigningPool(threads: number, hooks: SigningPoolHooks = {}): Es256kSigner {
  const now = hooks.now ?? Date.now;
  if (!Number.isInteger(threads) || threads < 1) throw new Error('threads must be ≥ 1');
  let nextId = 1;
  let turn = 0;
  let closed = false;
  const pool: Thread[] = [];

  const start = (slot: number): Thread => {
    const startedAt = now();
    const thread: Thread = {
      worker: new Worker(WORKER_SOURCE, { eval: true }),
      jobs: new Map(),
      alive: true,
    };
    thread.worker.unref();
    thread.worker.on('message', (answer: { id: number; signature?: string; error?: string }) => {
      const job = thread.jobs.get(answer.id);
      if (!job) return;
      thread.jobs.delete(answer.id);
      if (thread.jobs.size === 0) thread.worker.unref();
      if (answer.signature !== undefined) job.resolve(answer.signature);
      else job.reject(new Error(`ES256K signing failed: ${answer.error ?? 'unknown error'}`));
    });
    const lost = (reason: string): void => {
      const first = thread.alive;
      thread.alive = false;
      for (const job of thread.jobs.values()) {
        job.reject(new ServiceUnavailableError(`the signing thread ended (${reason}); try again`));
      }
      thread.jobs.clear();
      if (!first || closed) return;
      // A thread that ends right after its start would otherwise be restarted in a busy loop.
      const replace = (): void => {
        if (!closed && pool[slot] === thread) pool[slot] = start(slot);
      };
      if (now() - startedAt >= RESPAWN_DELAY_MS) replace();
      else setTimeout(replace, RESPAWN_DELAY_MS).unref();
    };
    thread.worker.once('error', (err) => lost(err.message));
    thread.worker.once('exit', (code) => lost(`exit code ${code}`));
    hooks.started?.(thread.worker);
    return thread;
  };
  for (let slot = 0; slot < threads; slot++) pool.push(start(slot));

  return {
    signEs256k(privateKeyHex, data) {
      if (closed) return Promise.reject(new ServiceUnavailableError('shutting down'));
      if (!/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) {
        return Promise.reject(new Error('ES256K signing needs a 32-byte secp256k1 private key'));
      }
      const thread = pool[turn]!;
      turn = (turn + 1) % pool.length;
      if (!thread.alive) {
        return Promise.reject(
          new ServiceUnavailableError('the signing thread is being restarted; try again'),
        );
      }
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        thread.jobs.set(id, { resolve, reject });
        // Keep the process alive only while a signature is pending.
        thread.worker.ref();
        thread.worker.postMessage({ id, privateKeyHex, data });
      });
    },
    async close() {
      closed = true;
      await Promise.all(pool.map((thread) => thread.worker.terminate()));
    },
  };
}
