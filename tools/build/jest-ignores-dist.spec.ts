import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/**
 * `npm run build` writes packages into dist/ (dist/libs/client with the SDK's package.json,
 * dist/images/<app>): npm test must still pass afterwards, so jest neither runs specs from there
 * nor puts those package.json files in its module map (a haste name collision with the
 * workspace @itp/client).
 */
describe('jest and the build output', () => {
  it('ignores dist/ for specs and for the module map', async () => {
    // The repository's own jest.config.js, loaded by its location: a root file, no project's module.
    const configFile = new URL('../../jest.config.js', import.meta.url).href;
    const { default: config } = (await import(configFile)) as {
      default: { testPathIgnorePatterns: string[]; modulePathIgnorePatterns: string[] };
    };
    const built = `${root}/dist/libs/client/package.json`;
    const matches = (patterns: string[]) =>
      patterns.some((p) => new RegExp(p.replace('<rootDir>', root)).test(built));
    expect(matches(config.testPathIgnorePatterns)).toBe(true);
    expect(matches(config.modulePathIgnorePatterns)).toBe(true);
    // …and only there: the workspace package itself stays in the map.
    const source = `${root}/libs/client/package.json`;
    expect(
      config.modulePathIgnorePatterns.some((p) =>
        new RegExp(p.replace('<rootDir>', root)).test(source),
      ),
    ).toBe(false);
  });
});
