/**
 * The images' contents without a Docker engine: each image's install + bundle steps
 * (tools/build/assemble-app.ts, the script the Dockerfiles run) into an empty temp folder outside
 * the repository, then every app started from its folder alone (plain node, APP_ENV=production,
 * strong generated secrets) against the test Redis, PostgreSQL and chain, wired together as in
 * production, each answering /health/ready and serving a request through the gateway. A
 * production dependency or file missing from an image fails here, not in a deployment.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { internalTokenEnv } from '@itp/crypto';
import { spawnGuarded } from '@itp/harness';
import {
  createTestDatabase,
  freePort,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  waitFor,
  type TestDatabase,
} from '@itp/testing';
import {
  FORBIDDEN_PACKAGES,
  IMAGE_APPS,
  assembleApp,
  type AssembledApp,
  type ImageApp,
  repoRoot,
} from '../build/assemble-app.js';
import { generateSecrets, type DeploymentSecrets } from './secrets.js';

const APPS = Object.keys(IMAGE_APPS) as ImageApp[];

interface Started {
  url: string;
  /** The internal API's listener (INTERNAL_PORT); nothing listens there for gateway, block-rpc. */
  internalUrl: string;
  child: ChildProcess;
  output: () => string;
}

/** `node <script>` from the app's folder with only `env` (plus PATH): nothing of the repository. */
function runNode(dir: string, args: string[], env: Record<string, string>): ChildProcess {
  // Through the harness: the reaper stops it should this worker be killed before it does.
  return spawnGuarded(process.execPath, args, {
    label: `image app ${args.join(' ')}`,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess): () => string {
  let text = '';
  const add = (chunk: Buffer): void => {
    text = (text + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text;
}

async function runToEnd(
  dir: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = runNode(dir, args, env);
  const output = collect(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output: output() };
}

async function startFromFolder(
  app: AssembledApp,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Started> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const metricsPort = await freePort();
  const internalPort = env.INTERNAL_PORT ? Number(env.INTERNAL_PORT) : await freePort();
  const child = runNode(app.outDir, ['--enable-source-maps', 'dist/main.js'], {
    APP_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    INTERNAL_PORT: String(internalPort),
    LOG_LEVEL: 'warn',
    ...env,
  });
  const output = collect(child);
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  let seen = 'no answer';
  const ready = await waitFor(
    async () => {
      if (exited) return 'exited';
      try {
        const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) });
        seen = `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`;
        return res.status === 200 ? 'ready' : undefined;
      } catch {
        seen = 'no answer';
        return undefined;
      }
    },
    { what: `${app.app} to be ready`, timeoutMs, intervalMs: 50 },
  ).catch(() => 'late');
  if (ready === 'ready') {
    return { url, internalUrl: `http://127.0.0.1:${internalPort}`, child, output };
  }
  child.kill('SIGKILL');
  throw new Error(
    `${app.app} from ${app.outDir} did not become ready (${exited ? 'exited' : seen}):\n${output()}`,
  );
}

async function stop(started: Started | undefined): Promise<void> {
  const child = started?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await ended;
  clearTimeout(timer);
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

describe('image contents (tools/build/assemble-app.ts into empty folders)', () => {
  const root = mkdtempSync(join(tmpdir(), 'itp-images-'));
  const assembled = {} as Record<ImageApp, AssembledApp>;
  const running = {} as Partial<Record<ImageApp, Started>>;
  let secrets: DeploymentSecrets;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    // All five bundles at once (esbuild works in its own process), while the secrets are made.
    const [results, generated, database] = await Promise.all([
      Promise.all(APPS.map((app) => assembleApp(app, join(root, app)))),
      generateSecrets(),
      createTestDatabase(),
    ]);
    for (const result of results) assembled[result.app as ImageApp] = result;
    secrets = generated;
    db = database;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(APPS.map((app) => stop(running[app])));
    await db?.drop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('holds only runtime packages: no dev chain, TypeScript runner, compiler or test tool', () => {
    for (const app of APPS) {
      const { outDir, packages } = assembled[app];
      expect({
        app,
        forbidden: packages.filter((p) => FORBIDDEN_PACKAGES.includes(p as never)),
      }).toEqual({ app, forbidden: [] });
      for (const name of FORBIDDEN_PACKAGES) {
        expect({ app, name, present: existsSync(join(outDir, 'node_modules', name)) }).toEqual({
          app,
          name,
          present: false,
        });
      }
      for (const file of readdirSync(join(outDir, 'dist')).filter((f) => f.endsWith('.js'))) {
        const code = readFileSync(join(outDir, 'dist', file), 'utf8');
        expect({ app, file, anvil: /@foundry-rs\/anvil|anvilBinaryPath/.test(code) }).toEqual({
          app,
          file,
          anvil: false,
        });
      }
    }
    // Only the apps with a database carry the SQL drivers; argon2 only where passwords are.
    expect(assembled.gateway.packages).not.toContain('pg');
    expect(assembled['auth-service'].packages).toContain('@node-rs/argon2');
    expect(assembled['token-rpc'].packages).not.toContain('@node-rs/argon2');
  });

  it('has the sizes deploy/README.md states (within 20 %)', () => {
    // The README's table: | image | node_modules | dist |, sizes like "1.2 MB" or "21 MB".
    const readme = readFileSync(join(repoRoot, 'deploy/README.md'), 'utf8');
    const mb = (bytes: number) => bytes / 1e6;
    const rows = new Map(
      [...readme.matchAll(/^\| ([a-z-]+) +\| ([\d.]+) MB +\| ([\d.]+) MB +\|$/gm)].map((m) => [
        m[1]!,
        { nodeModules: Number(m[2]), dist: Number(m[3]) },
      ]),
    );
    const off: string[] = [];
    for (const app of APPS) {
      const stated = rows.get(app);
      const measured = {
        nodeModules: mb(assembled[app].nodeModulesBytes),
        dist: mb(assembled[app].distBytes),
      };
      const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.2 * b, 0.3);
      if (
        !stated ||
        !near(measured.nodeModules, stated.nodeModules) ||
        !near(measured.dist, stated.dist)
      ) {
        off.push(
          `${app}: README says ${JSON.stringify(stated)}, measured node_modules ${measured.nodeModules.toFixed(1)} MB, dist ${measured.dist.toFixed(1)} MB`,
        );
      }
    }
    expect(off).toEqual([]);
  });

  it('starts every app from its folder alone in production mode, wired as deployed', async () => {
    const chain = testChainUrl();
    const stores = (name: string): Record<string, string> => ({
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: uniquePrefix(`img-${name}`),
      DATABASE_URL: (db as TestDatabase).url,
    });
    // Each service only the internal tokens of the calls it makes and answers, as deployed.
    const internal = (app: string) => internalTokenEnv(app, secrets);

    // The registry job of compose, from the did-service image: a fresh funded deployer.
    const deployer = Wallet.createRandom();
    await rpc(chain, 'anvil_setBalance', [deployer.address, '0x56BC75E2D63100000']);
    const job = await runToEnd(assembled['did-service'].outDir, ['dist/deploy-did-registry.js'], {
      ETH_RPC_URL: chain,
      DEPLOYER_PRIVATE_KEY: deployer.privateKey,
    });
    expect({ code: job.code, output: job.output }).toEqual({
      code: 0,
      output: expect.stringMatching(/^0x[0-9a-fA-F]{40}\n$/),
    });
    const registry = job.output.trim();

    // The migration Jobs first (as an upgrade runs them), then the services on the migrated schema.
    const migrated = await Promise.all(
      (['auth-service', 'did-service', 'token-rpc', 'block-rpc'] as const).map(async (app) => ({
        app,
        ...(await runToEnd(assembled[app].outDir, ['dist/migrate.js'], {
          DATABASE_URL: (db as TestDatabase).url,
        })),
      })),
    );
    for (const { app, code, output } of migrated) {
      expect({ app, code, output }).toEqual({
        app,
        code: 0,
        output: `${app}: migrations applied\n`,
      });
    }

    // did-service is called by auth-service per request only: start it after the others.
    const didInternalPort = await freePort();
    const [auth, token, block] = await Promise.all([
      startFromFolder(assembled['auth-service'], {
        ...stores('auth'),
        ...internal('auth-service'),
        JWT_SIGNING_KEYS: secrets.JWT_SIGNING_KEYS,
        DID_SERVICE_INTERNAL_URL: `http://127.0.0.1:${didInternalPort}`,
        PUBLIC_URL: 'https://api.example.test',
      }),
      startFromFolder(assembled['token-rpc'], {
        ...stores('token'),
        ...internal('token-rpc'),
        ETH_RPC_URL: chain,
        WALLET_MASTER_KEY: secrets.WALLET_MASTER_KEY,
      }),
      startFromFolder(assembled['block-rpc'], { ...stores('block'), ETH_RPC_URL: chain }),
    ]);
    Object.assign(running, { 'auth-service': auth, 'token-rpc': token, 'block-rpc': block });
    const did = await startFromFolder(assembled['did-service'], {
      ...stores('did'),
      ...internal('did-service'),
      INTERNAL_PORT: String(didInternalPort),
      ETH_RPC_URL: chain,
      DID_REGISTRY_ADDRESS: registry,
      DID_KMS_SECRET_KEY: secrets.DID_KMS_SECRET_KEY,
      TOKEN_RPC_INTERNAL_URL: token.internalUrl,
      AUTH_SERVICE_URL: auth.url,
      AUTH_SERVICE_INTERNAL_URL: auth.internalUrl,
      PUBLIC_URL: 'https://api.example.test',
    });
    running['did-service'] = did;
    const gateway = await startFromFolder(assembled.gateway, {
      AUTH_SERVICE_URL: auth.url,
      DID_SERVICE_URL: did.url,
      TOKEN_RPC_URL: token.url,
      BLOCK_RPC_URL: block.url,
    });
    running.gateway = gateway;

    // One request per API through the gateway: code that loads lazily is exercised too.
    const jwks = await fetch(`${gateway.url}/v2/auth/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    const issuers = await fetch(`${gateway.url}/v2/did/issuers`);
    expect(issuers.status).toBe(200);
    expect(await issuers.text()).toMatch(/did:ethr:0x[0-9a-fA-F]{40}/);
    expect(await rpc(`${gateway.url}/block`, 'getBlockNumber')).toMatchObject({
      result: expect.anything(),
    });
    expect(await rpc(`${gateway.url}/token`, 'no-such-method')).toMatchObject({
      error: { code: -32601 },
    });
    // /docs serves swagger-ui-dist's files from the image (a package read by path, not imported).
    const css = await fetch(`${gateway.url}/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect((await css.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${gateway.url}/openapi.json`)).status).toBe(200);
  }, 110_000);

  it('runs the operator CLI from the bundle (no tsx): usage, then a real query', async () => {
    const dir = assembled['auth-service'].outDir;
    const help = await runToEnd(dir, ['dist/cli.js', '--help'], {});
    expect(help).toEqual({ code: 0, output: expect.stringContaining('users list') });
    const list = await runToEnd(dir, ['dist/cli.js', 'users', 'list', '--json'], {
      APP_ENV: 'production',
      DATABASE_URL: (db as TestDatabase).url,
    });
    expect(list).toEqual({ code: 0, output: expect.stringMatching(/^\[.*\]\s*$/s) });
    // did-service's CLI (key-store rotation) on the keys the started service sealed.
    const kms = await runToEnd(assembled['did-service'].outDir, ['dist/cli.js', 'kms', 'status'], {
      APP_ENV: 'production',
      DATABASE_URL: (db as TestDatabase).url,
      DID_KMS_SECRET_KEY: secrets.DID_KMS_SECRET_KEY,
    });
    const keyId = secrets.DID_KMS_SECRET_KEY.split(':')[0];
    expect(kms).toEqual({ code: 0, output: expect.stringContaining(`current key id: ${keyId}`) });
    expect(kms.output).toContain('to re-encrypt: 0');

    // The one CLI, bundled into every image: its operator groups run the image's own dist/cli.js,
    // its API commands call the gateway started above.
    const viaItp = await runToEnd(dir, ['dist/itp.js', 'users', 'list', '--json'], {
      APP_ENV: 'production',
      DATABASE_URL: (db as TestDatabase).url,
    });
    expect(viaItp).toEqual(list);
    const block = await runToEnd(
      assembled.gateway.outDir,
      ['dist/itp.js', 'block', 'get', '0', '--json'],
      { ITP_URL: (running.gateway as Started).url },
    );
    expect(block.code).toBe(0);
    expect(block.output).toMatch(/"number":\s*0\b/);
  }, 30_000);
});
