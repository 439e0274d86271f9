import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { resolveDeploymentSecret, resolveInternalApiToken } from './deployment-secrets.js';

describe('deployment secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the configured value in every mode', () => {
    for (const APP_ENV of ['development', 'production', 'test']) {
      expect(resolveInternalApiToken({ APP_ENV, DATA_DIR: dir, INTERNAL_API_TOKEN: 'given' })).toBe(
        'given',
      );
    }
  });

  it('in development generates one shared value into DATA_DIR/secrets (0600)', () => {
    const first = resolveInternalApiToken({ APP_ENV: 'development', DATA_DIR: dir });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveInternalApiToken({ APP_ENV: 'development', DATA_DIR: dir })).toBe(first);
    const file = join(dir, 'secrets', 'internal-api-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('outside development never generates one', () => {
    for (const APP_ENV of ['production', 'test']) {
      expect(resolveDeploymentSecret({ APP_ENV, DATA_DIR: dir }, undefined, 'x', () => 'v')).toBe(
        undefined,
      );
    }
  });

  it('keeps a dev secret that is already there and generates only once', () => {
    mkdirSync(join(dir, 'kept', 'secrets'), { recursive: true });
    writeFileSync(join(dir, 'kept', 'secrets', 'x'), 'kept\n');
    let calls = 0;
    const generate = () => `new-${++calls}`;
    const config = { APP_ENV: 'development', DATA_DIR: join(dir, 'kept') };
    expect(resolveDeploymentSecret(config, undefined, 'x', generate)).toBe('kept');
    expect(resolveDeploymentSecret(config, undefined, 'y', generate)).toBe('new-1');
    expect(resolveDeploymentSecret(config, undefined, 'y', generate)).toBe('new-1');
    expect(calls).toBe(1);
  });
});
