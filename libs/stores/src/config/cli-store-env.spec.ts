import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { cliStoreEnv } from './cli-store-env.js';

/** A checkout after `npm start`: <repo>/data/auth-service.sqlite, and an app folder. */
const root = mkdtempSync(join(tmpdir(), 'itp-cli-store-env-'));
const repo = join(root, 'repo');
const app = join(repo, 'apps', 'auth-service');
const elsewhere = join(root, 'elsewhere');
for (const dir of [join(repo, 'data'), app, elsewhere, join(root, 'custom')]) {
  mkdirSync(dir, { recursive: true });
}
writeFileSync(join(repo, 'data', 'auth-service.sqlite'), '');
writeFileSync(join(root, 'custom', 'auth-service.sqlite'), '');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dev = { APP_ENV: 'development', DATA_DIR: join(repo, 'data') };

describe('cliStoreEnv (the operator CLIs find the dev stack)', () => {
  it("finds the dev stack's data from the repository root and from the app folder", () => {
    expect(cliStoreEnv({}, 'auth-service', { cwd: repo })).toMatchObject(dev);
    // `npm run cli -w @itp/auth-service` runs in the app folder.
    expect(cliStoreEnv({}, 'auth-service', { cwd: app })).toMatchObject(dev);
    // APP_ENV=development alone no longer means ./data of the app folder.
    expect(cliStoreEnv({ APP_ENV: 'development' }, 'auth-service', { cwd: app })).toMatchObject(
      dev,
    );
    // npm's INIT_CWD (where the operator typed the command) comes first.
    expect(cliStoreEnv({ INIT_CWD: app }, 'auth-service', { cwd: elsewhere })).toMatchObject(dev);
  });

  it("finds it from any folder above the CLI's own (an installed itp run elsewhere)", () => {
    expect(cliStoreEnv({}, 'auth-service', { cwd: elsewhere, searchFrom: [app] })).toMatchObject(
      dev,
    );
  });

  it('takes DATA_DIR relative to the operator, and DATABASE_URL or another APP_ENV as given', () => {
    expect(cliStoreEnv({ DATA_DIR: 'custom' }, 'auth-service', { cwd: root })).toMatchObject({
      APP_ENV: 'development',
      DATA_DIR: join(root, 'custom'),
    });
    const url = { DATABASE_URL: 'postgres://db/itp' };
    expect(cliStoreEnv(url, 'auth-service', { cwd: repo })).toEqual(url);
    // APP_ENV=development with the wrong DATA_DIR: the caller names the missing file.
    expect(
      cliStoreEnv({ APP_ENV: 'development', DATA_DIR: 'nope' }, 'auth-service', { cwd: root }),
    ).toEqual({ APP_ENV: 'development', DATA_DIR: join(root, 'nope') });
  });

  it('without a dev stack says how to point at the database', () => {
    let refused: unknown;
    try {
      cliStoreEnv({}, 'did-service', { cwd: repo, searchFrom: [app] });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    const text = (refused as ConfigError).issues.join('\n');
    expect(text).toContain(`no did-service database found: no dev stack data folder`);
    expect(text).toMatch(/set DATABASE_URL .*, or APP_ENV=development and DATA_DIR=/);
    expect(() => cliStoreEnv({ APP_ENV: 'production' }, 'auth-service', { cwd: repo })).toThrow(
      /DATABASE_URL: required when APP_ENV=production[\s\S]*APP_ENV=development and DATA_DIR=/,
    );
    expect(() => cliStoreEnv({ DATA_DIR: 'nope' }, 'auth-service', { cwd: root })).toThrow(
      /no auth-service database in DATA_DIR=.*nope/,
    );
  });
});
