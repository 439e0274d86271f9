import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildPackage } from './build-package.js';

const repoRoot = resolve(import.meta.dirname, '../../..');

/**
 * Type errors, by file name, of `sources` compiled in one program as a consumer of the built
 * package (and zod) would. skipLibCheck: a declaration that failed to resolve would make the
 * types `any`, which the deliberately wrong source below would then no longer catch.
 */
function typeErrors(
  consumerDir: string,
  sources: Record<string, string>,
): Record<string, string[]> {
  const files = Object.entries(sources).map(([name, source]) => {
    const file = join(consumerDir, `${name}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  const errors: Record<string, string[]> = Object.fromEntries(
    Object.keys(sources).map((n) => [n, []]),
  );
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName.replace(/^.*\//, '').replace(/\.ts$/, '') : 'global';
    (errors[name] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return errors;
}

describe('the publishable package (dist/libs/client)', () => {
  const work = mkdtempSync(join(tmpdir(), 'itp-client-pkg-'));
  const outDir = join(work, 'node_modules', '@itp', 'client');

  beforeAll(async () => {
    await buildPackage(outDir);
    writeFileSync(join(work, 'package.json'), '{"type":"module"}');
    mkdirSync(join(work, 'node_modules'), { recursive: true });
    for (const dependency of ['zod', 'viem']) {
      symlinkSync(
        join(repoRoot, 'node_modules', dependency),
        join(work, 'node_modules', dependency),
      );
    }
  }, 60_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('bundles the SDK with viem/siwe as its only import and names viem and zod as dependencies', async () => {
    const bundle = readFileSync(join(outDir, 'index.js'), 'utf8');
    expect(bundle).not.toMatch(/^\s*import\s|\brequire\(|@itp\//m);
    const imported = [...bundle.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect([...new Set(imported)]).toEqual(['viem/siwe']);
    const manifest = JSON.parse(readFileSync(join(outDir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@itp/client', type: 'module' });
    expect(Object.keys(manifest.dependencies)).toEqual(['viem', 'zod']);
    expect(manifest.dependencies.viem).toMatch(/^\^2\./);
    const sdk = await import(pathToFileURL(join(outDir, 'index.js')).href);
    expect(typeof sdk.createClient).toBe('function');
    expect(sdk.InsufficientFundsError.code).toBe('402');
    // Sign-In with Ethereum loads viem/siwe from the package's dependency.
    const posted: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      posted.push(String(init.body));
      const body = url.endsWith('/siwe/nonce')
        ? { nonce: 'abcdefgh12345678', domain: 'gw.example', uri: 'https://gw.example', chainId: 1 }
        : { token: 't', userId: 'demo', name: 'Demo', telNo: null, email: null };
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const account = privateKeyToAccount(generatePrivateKey());
    const login = await sdk
      .createClient({ baseUrl: 'https://gw.example', fetch })
      .auth.loginWithSiwe(account);
    expect(login.userId).toBe('demo');
    expect(JSON.parse(posted[1] ?? '{}').message).toContain(`${account.address}\n`);
  });

  it('ships declarations a consumer type-checks against', () => {
    const errors = typeErrors(work, {
      right: `
        import { createClient, InsufficientFundsError, type LoginResult } from '@itp/client';
        import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
        const itp = createClient({ baseUrl: 'http://127.0.0.1:8080' });
        export async function run(): Promise<string> {
          const login: LoginResult = await itp.auth.login({ id: 'demo', password: 'x' });
          const block = await itp.block.getBlock('latest');
          return login.userId + block.hash + InsufficientFundsError.code;
        }
        export async function siwe(): Promise<string> {
          const account = privateKeyToAccount(generatePrivateKey());
          const ethersLike = { getAddress: async () => '0x1', signMessage: async (m: string) => m };
          const me = itp.withToken('jwt');
          const linked = await me.auth.linkAddress(ethersLike);
          return (await itp.auth.loginWithSiwe(account, { statement: 'Hi' })).token + linked.address;
        }`,
      wrong: `
        import { createClient } from '@itp/client';
        export async function run(): Promise<number> {
          return (await createClient({ baseUrl: 'x' }).auth.login({ id: 'demo', password: 'x' })).userId;
        }`,
    });
    expect(errors['right']).toEqual([]);
    expect(errors['wrong']?.join('\n')).toContain("'string' is not assignable to type 'number'");
    expect(errors['global'] ?? []).toEqual([]);
  });
});
