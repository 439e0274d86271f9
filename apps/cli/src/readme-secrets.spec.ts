import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Every file a documented itp example writes with `> name.json`. */
function writtenFiles(markdown: string): string[] {
  return [...markdown.matchAll(/itp [^\n]*?>\s*([~\w./$-]+\.json)/g)].map((m) => m[1]!);
}

describe('itp examples never put secrets into the repository', () => {
  it('write outside it, or to names the .gitignore refuses', () => {
    const files = ['README.md', 'apps/cli/README.md'].flatMap((doc) =>
      writtenFiles(readFileSync(`${root}/${doc}`, 'utf8')),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      if (file.startsWith('~/') || file.startsWith('/')) continue;
      // A relative name: it may land in the repository (run from its root): must be ignored.
      const ignored = execFileSync('git', ['check-ignore', '--no-index', file], {
        cwd: root,
        encoding: 'utf8',
      }).trim();
      expect(ignored).toBe(file);
    }
  });
});
