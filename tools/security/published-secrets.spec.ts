/**
 * docs/api.md §1: production refuses a secret that is written anywhere in this repository (compose,
 * docs). These tests read the repository itself: compose defaults no secret, and every value the
 * docs assign to a secret is one the services refuse.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { secretWeakness } from '@itp/crypto';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRETS = [
  'INTERNAL_TOKEN_DID_TO_TOKEN_RPC',
  'INTERNAL_TOKEN_DID_TO_AUTH',
  'INTERNAL_TOKEN_AUTH_TO_DID',
  'WALLET_MASTER_KEY',
  'WALLET_PREVIOUS_MASTER_KEYS',
  'DID_KMS_SECRET_KEY',
  'DID_KMS_PREVIOUS_SECRET_KEYS',
  'INTERNAL_API_ACCEPTED_TOKENS',
  'JWT_SIGNING_KEYS',
  'POSTGRES_PASSWORD',
];

function documents(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (['node_modules', '.git', 'dist', 'data', '.nx'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...documents(path));
    else if (/\.(md|ya?ml|env\.example)$|^Dockerfile$|^\.env\.example$/.test(name))
      found.push(path);
  }
  return found;
}

describe('secrets written in this repository', () => {
  const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');

  it('compose requires every secret and defaults none', () => {
    // Keys set only during a rotation (docs/operations.md) are not required by compose.
    const rotationOnly = [
      'WALLET_PREVIOUS_MASTER_KEYS',
      'DID_KMS_PREVIOUS_SECRET_KEYS',
      'INTERNAL_API_ACCEPTED_TOKENS',
      'INTERNAL_API_ACCEPTED_TOKENS_TOKEN_RPC',
      'INTERNAL_API_ACCEPTED_TOKENS_AUTH_SERVICE',
      'INTERNAL_API_ACCEPTED_TOKENS_DID_SERVICE',
    ];
    for (const name of SECRETS.filter((n) => !rotationOnly.includes(n))) {
      const uses = [...compose.matchAll(new RegExp(`\\$\\{${name}([^}]*)\\}`, 'g'))];
      expect({ name, used: uses.length > 0 }).toEqual({ name, used: true });
      for (const use of uses)
        expect({ name, form: use[1]?.slice(0, 2) }).toEqual({ name, form: ':?' });
    }
    // No secret is given a literal value in compose.
    for (const name of SECRETS) {
      expect(compose).not.toMatch(new RegExp(`^\\s*${name}:\\s*(?!\\$\\{)\\S`, 'm'));
    }
  });

  it('every value the docs and deploy files assign to a secret is refused by production', () => {
    const assignment = new RegExp(
      `\\b(${SECRETS.join('|')})\\s*[=:]\\s*['"]?([^\\s'"$\`<>{}|,;)]{8,})`,
      'g',
    );
    const accepted: string[] = [];
    for (const file of documents(root)) {
      const text = readFileSync(file, 'utf8');
      for (const [, name, value] of text.matchAll(assignment)) {
        if (name === 'JWT_SIGNING_KEYS' || name === 'POSTGRES_PASSWORD') continue;
        if (value && secretWeakness(value) === undefined) {
          accepted.push(`${relative(root, file)}: ${name}`);
        }
      }
    }
    expect(accepted).toEqual([]);
  });
});
