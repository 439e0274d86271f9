/**
 * The paths a new user walks from a fresh clone, as the READMEs show them: one host name (the dev
 * stack's public URL is http://localhost:<PORT>, the OpenID Connect issuer among others), an itp
 * that works from any folder, and an OpenID4VP example that leaves the one-time request object to
 * the wallet.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (doc: string) => readFileSync(`${root}/${doc}`, 'utf8');

/** The shell blocks of a Markdown file. */
const shellBlocks = (markdown: string): string[] =>
  [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '');

describe('README paths from a fresh clone', () => {
  it("names the dev stack's gateway by localhost, never 127.0.0.1:<PORT>", () => {
    for (const doc of ['README.md', 'apps/cli/README.md']) {
      expect({ doc, hits: read(doc).match(/127\.0\.0\.1:(8080|<PORT>)[^/]/g) ?? [] }).toEqual({
        doc,
        hits: [],
      });
    }
    expect(read('README.md')).toContain('`http://localhost:8080/v2/auth/oidc` under `npm start`');
  });

  it('runs itp from any folder: no npm run alias, an installed bin instead', () => {
    const readme = read('README.md');
    for (const block of shellBlocks(readme)) {
      expect(block).not.toMatch(/alias itp=.*npm run/);
    }
    expect(readme).toContain('npm install -g ./apps/cli');
    expect(read('apps/cli/README.md')).toContain('npm install -g ./apps/cli');
  });

  it('lets the wallet fetch the one-time OpenID4VP request object: itp login approve, no curl', () => {
    const block = shellBlocks(read('README.md')).find((b) => b.includes('openid4vpUri'));
    expect(block).toBeDefined();
    // A GET of request_uri before the wallet's makes the wallet's a 404.
    expect(block).not.toMatch(/curl[^\n]*\$REQUEST_URI|curl[^\n]*request_uri/);
    expect(block).toMatch(/^itp login approve --oid4vp "\$URI" /m);
  });
});
