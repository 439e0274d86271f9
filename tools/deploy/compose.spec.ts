/**
 * docker-compose.yml validated offline with Debian's docker-compose (1.29; .ci/run installs it):
 * it resolves with a freshly generated env file, refuses to resolve without one, and the resolved
 * file keeps the production shape (one published port, read-only app containers, the registry
 * job before did-service).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { generateSecrets, toEnvFile } from './secrets.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const APP_SERVICES = ['gateway', 'auth-service', 'did-service', 'token-rpc', 'block-rpc'];

interface Compose {
  services: Record<
    string,
    {
      ports?: unknown[];
      read_only?: boolean;
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string }>;
      image?: string;
    }
  >;
}

async function compose(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('docker-compose', ['-f', 'docker-compose.yml', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string; code?: unknown };
    if (e.code === 'ENOENT') {
      throw new Error(
        'docker-compose is not installed: apt-get install docker-compose (Debian 1.29; .ci/run does)',
      );
    }
    return { code: Number(e.code ?? 1), stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Compose v2's `${VAR:-default}`, defaults nested (innermost first): pure string logic. */
function interpolate(text: string, env: Record<string, string>): string {
  let out = text;
  for (let prev = ''; prev !== out;) {
    prev = out;
    out = out.replace(/\$\{(\w+):-([^${}]*)\}/g, (_m, name: string, fallback: string) =>
      env[name] ? env[name] : fallback,
    );
  }
  return out;
}

describe('docker-compose.yml: one port', () => {
  it('derives PUBLIC_URL (the OpenID Connect issuer) from GATEWAY_PORT unless it is set', () => {
    const raw = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as Compose;
    const gateway = raw.services['gateway'];
    const publicUrl = gateway?.environment?.PUBLIC_URL ?? '';
    expect(interpolate(publicUrl, {})).toBe('http://localhost:8080');
    expect(interpolate(publicUrl, { GATEWAY_PORT: '9090' })).toBe('http://localhost:9090');
    expect(interpolate(String(gateway?.ports?.[0]), { GATEWAY_PORT: '9090' })).toBe('9090:8080');
    expect(
      interpolate(publicUrl, { GATEWAY_PORT: '9090', PUBLIC_URL: 'https://itp.example' }),
    ).toBe('https://itp.example');
    // Every service names the gateway's PUBLIC_URL (the issuer, wallets' URLs): the same value.
    for (const name of APP_SERVICES) {
      expect({ name, url: raw.services[name]?.environment?.PUBLIC_URL }).toEqual({
        name,
        url: publicUrl,
      });
    }
  });
});

describe('docker-compose.yml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-compose-'));
  const envFile = join(dir, 'generated.env');
  const emptyEnv = join(dir, 'empty.env');

  beforeAll(async () => {
    writeFileSync(envFile, toEnvFile(await generateSecrets()), { mode: 0o600 });
    writeFileSync(emptyEnv, '');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validates with a generated env file (docker-compose config -q)', async () => {
    const result = await compose(['--env-file', envFile, 'config', '-q']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  }, 30_000);

  it('refuses to resolve without the secrets, naming the missing one', async () => {
    const result = await compose(['--env-file', emptyEnv, 'config', '-q']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/set [A-Z_]+ \(see \.env\.example\)/);
  }, 30_000);

  it('resolves to the production shape, secrets taken from the env file', async () => {
    const result = await compose(['--env-file', envFile, 'config']);
    expect(result.code).toBe(0);
    const resolved = parse(result.stdout) as Compose;
    const published = Object.entries(resolved.services)
      .filter(([, service]) => (service.ports ?? []).length > 0)
      .map(([name]) => name);
    expect(published).toEqual(['gateway']);
    for (const name of APP_SERVICES) {
      const service = resolved.services[name];
      expect({ name, readOnly: service?.read_only, env: service?.environment?.APP_ENV }).toEqual({
        name,
        readOnly: true,
        env: 'production',
      });
    }
    const did = resolved.services['did-service'];
    expect(did?.depends_on?.['did-registry']?.condition).toBe('service_completed_successfully');
    expect(did?.environment?.DID_REGISTRY_ADDRESS).toBe(
      resolved.services['did-registry']?.environment?.EXPECTED_ADDRESS,
    );
    const anvil = resolved.services['anvil'] as
      | {
          image?: string;
          entrypoint?: string[];
          volumes?: Array<{ source?: string; target?: string } | string>;
        }
      | undefined;
    expect(anvil?.image).toMatch(/:v\d+\.\d+\.\d+$/); // pinned
    // The chain persists: a recreated anvil is the chain the database refers to.
    const state = anvil?.entrypoint?.[anvil.entrypoint.indexOf('--state') + 1];
    expect(state).toBe('/chain/state.json');
    expect(JSON.stringify(anvil?.volumes)).toContain('chaindata');
    expect(
      Object.keys((resolved as unknown as { volumes: Record<string, unknown> }).volumes),
    ).toContain('chaindata');
    const token = resolved.services['token-rpc']?.environment ?? {};
    expect(token.WALLET_MASTER_KEY).toMatch(/^k\d{8}[0-9a-f]{4}:[A-Za-z0-9+/]{43}=$/);
    const auth = resolved.services['auth-service']?.environment ?? {};
    expect(JSON.parse(auth.JWT_SIGNING_KEYS ?? '[]')).toEqual([
      expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256' }),
      expect.objectContaining({ kty: 'RSA', alg: 'RS256' }),
    ]);
  }, 30_000);
});
