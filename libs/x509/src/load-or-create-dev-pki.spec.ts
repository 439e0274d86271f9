import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DevPkiError } from './dev-pki-error.js';
import { ES256_KEY_ALGORITHM } from './generate-certificate.js';
import { loadOrCreateDevPki } from './load-or-create-dev-pki.js';
import { trustAnchorsFrom } from './trust-anchors.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const execFileAsync = promisify(execFile);

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'itp-dev-pki-'));
  try {
    await run(join(dir, 'secrets'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('loadOrCreateDevPki', () => {
  it('creates a CA and leaves that chain to it, with the host as SAN dNSName, in 0600 files', async () => {
    await withDir(async (dir) => {
      const pki = await loadOrCreateDevPki(dir, { verifierHost: 'localhost' });
      const anchors = trustAnchorsFrom([pki.caPem]);
      const verifier = await verifyCertificateChain(pki.verifier.x5c, anchors);
      expect(verifier.dnsNames).toEqual(['localhost']);
      expect(pki.verifier.dnsNames).toEqual(['localhost']);
      await expect(verifyCertificateChain(pki.issuer.x5c, anchors)).resolves.toMatchObject({
        dnsNames: ['localhost'],
      });
      const key = await webcrypto.subtle.importKey(
        'jwk',
        pki.verifier.privateKeyJwk,
        ES256_KEY_ALGORITHM,
        false,
        ['sign'],
      );
      const data = new TextEncoder().encode('request object');
      const signature = await webcrypto.subtle.sign(ES256_KEY_ALGORITHM, key, data);
      await expect(
        webcrypto.subtle.verify(ES256_KEY_ALGORITHM, verifier.publicKey, signature, data),
      ).resolves.toBe(true);
      const files = await readdir(dir);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      for (const file of files) {
        expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
      }
    });
  });

  it('reads the same PKI back after a restart, and two processes starting together agree', async () => {
    await withDir(async (dir) => {
      const [a, b] = await Promise.all([
        loadOrCreateDevPki(dir, { verifierHost: 'localhost' }),
        loadOrCreateDevPki(dir, { verifierHost: 'LOCALHOST' }),
      ]);
      expect(b).toEqual(a);
      await expect(loadOrCreateDevPki(dir, { verifierHost: 'localhost' })).resolves.toEqual(a);
    });
  });

  it('agrees across two processes starting together (only the index imported: its setup suffices)', async () => {
    await withDir(async (dir) => {
      const script = fileURLToPath(new URL('./testing/print-dev-pki.ts', import.meta.url));
      const run = async (): Promise<unknown> => {
        const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script, dir], {
          timeout: 20_000,
          env: { ...process.env, NODE_OPTIONS: '' },
        });
        return JSON.parse(stdout);
      };
      const [a, b] = await Promise.all([run(), run()]);
      expect(b).toEqual(a);
      const pki = await loadOrCreateDevPki(dir, { verifierHost: 'localhost' });
      expect(a).toEqual({ caPem: pki.caPem, verifier: pki.verifier.x5c, issuer: pki.issuer.x5c });
    });
  });

  it('issues new leaves from the same CA when the host changes, and keeps the old ones', async () => {
    await withDir(async (dir) => {
      const local = await loadOrCreateDevPki(dir, { verifierHost: 'localhost' });
      const other = await loadOrCreateDevPki(dir, { verifierHost: 'verifier.example.test' });
      expect(other.caPem).toBe(local.caPem);
      expect(other.verifier.x5c[0]).not.toBe(local.verifier.x5c[0]);
      expect(other.verifier.x5c[1]).toBe(local.verifier.x5c[1]);
      expect(other.verifier.dnsNames).toEqual(['verifier.example.test']);
      await expect(loadOrCreateDevPki(dir, { verifierHost: 'localhost' })).resolves.toEqual(local);
    });
  });

  it('refuses a host that is not a DNS name (an IP address, a path)', async () => {
    await withDir(async (dir) => {
      for (const verifierHost of ['127.0.0.1', '::1', '../etc', 'a/b', '', 'local host']) {
        await expect(loadOrCreateDevPki(dir, { verifierHost })).rejects.toThrow(DevPkiError);
      }
    });
  });

  it('refuses a tampered CA file or leaves that do not chain to the CA, naming the file', async () => {
    await withDir(async (dir) => {
      await loadOrCreateDevPki(dir, { verifierHost: 'localhost' });
      const leavesFile = (await readdir(dir)).find((f) => f.startsWith('dev-leaves.localhost.'));
      const other = join(dir, '..', 'other');
      const foreign = await loadOrCreateDevPki(other, { verifierHost: 'localhost' });
      await writeFile(
        join(dir, leavesFile as string),
        JSON.stringify({ verifier: foreign.verifier, issuer: foreign.issuer }),
      );
      await expect(loadOrCreateDevPki(dir, { verifierHost: 'localhost' })).rejects.toThrow(
        /dev-leaves\.localhost\..*does not hold leaves of the dev CA/,
      );
      await writeFile(join(dir, 'dev-ca.json'), '{"certificatePem":"x"}');
      await expect(loadOrCreateDevPki(dir, { verifierHost: 'localhost' })).rejects.toThrow(
        /dev-ca\.json is not a dev CA/,
      );
    });
  });
});
