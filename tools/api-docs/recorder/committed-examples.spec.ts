import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { DEMO_CLIENT, DEMO_USER } from '@itp/auth-service/demo-data';
import { redactSecrets } from './placeholders.js';

// The committed example files hold no secret: redacting them again changes nothing (every
// secretKey, mnemonic, password and login JWT is already a placeholder), and the dev stack's
// published credentials appear nowhere.

const FILES = [
  '../../../libs/schemas/src/openapi/rest-examples.json',
  '../../../apps/token-rpc/src/rpc/recorded-examples.json',
];

describe.each(FILES)('%s', (file) => {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');

  it('holds placeholders only where secrets were', () => {
    const parsed = JSON.parse(text) as unknown;
    const { value, replaced } = redactSecrets(parsed);
    expect(replaced).toEqual([]);
    expect(value).toEqual(parsed);
  });

  it('holds none of the dev stack’s credentials', () => {
    expect(text).not.toContain(DEMO_USER.password);
    expect(text).not.toContain(DEMO_CLIENT.secret);
  });

  // The served API document may not name 127.0.0.1 (docs-router.spec.ts); the recorder's stack
  // runs with PUBLIC_URL=http://localhost:8080 so that the status list URLs in VCs do not.
  it('names no 127.0.0.1 address', () => {
    expect(text).not.toContain('127.0.0.1');
  });
});
