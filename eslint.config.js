// One lint config for the whole workspace. `npm run lint` fails on any warning.
import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every app's package name and the entry points it declares for other projects (the subpaths of
 * its package.json `exports`, e.g. `testing` for `@itp/token-rpc/testing`).
 */
const appPackages = readdirSync(join(import.meta.dirname, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const manifest = JSON.parse(
      readFileSync(join(import.meta.dirname, 'apps', entry.name, 'package.json'), 'utf8'),
    );
    return { name: manifest.name, entryPoints: Object.keys(manifest.exports ?? {}) };
  });
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Matches `name` and every `name/…` except the declared entry points (`./x` → `name/x`). */
const undeclaredImportOf = (name, entryPoints) => {
  const declared = entryPoints.map((entry) => `${escapeRegex(entry.slice(1))}$`);
  return `^${escapeRegex(name)}${declared.length > 0 ? `(?!${declared.join('|')})` : ''}(/.*)?$`;
};

/**
 * Projects and their tags (package.json `nx` field or project.json): apps (`type:app`) import only
 * libs, never apps; libs (`type:lib`) import only libs, never apps or tools; tools (`type:tool`:
 * tools/, bench/, resilience/, e2e/) import libs, and apps only through the entry points the apps
 * declare (`allow` of the tools' block below: Nx refuses every other import of an app project).
 * Across projects only by package name, never by relative path.
 */
const MODULE_BOUNDARIES = {
  enforceBuildableLibDependency: false,
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
  ],
};
/** `^@itp/<app>/<entry>$` of every declared entry point (Nx reads `allow` as a regex). */
const DECLARED_APP_ENTRY_POINTS = appPackages.flatMap(({ name, entryPoints }) =>
  entryPoints.map((entry) => `^${escapeRegex(`${name}${entry.slice(1)}`)}$`),
);
/** The browser scripts (apps/<app>/src/…/browser/*.js), and the browser globals they may use. */
const BROWSER_SCRIPTS = 'apps/*/src/**/browser/*.js';
const BROWSER_GLOBALS = [
  'window',
  'document',
  'fetch',
  'setTimeout',
  'clearTimeout',
  'localStorage',
  'TextEncoder',
  'URL',
  'navigator',
  'AbortController',
  'PublicKeyCredential',
];
const APP_CODE_MESSAGE =
  "Tools reach an app only through an entry point it declares in its package.json `exports` (e.g. '@itp/token-rpc/testing'): declare one there and import it by package name.";

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.nx/**',
      'coverage/**',
      '**/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...nx.configs['flat/base'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...MODULE_BOUNDARIES, allow: [] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // Configuration is read once, at start, in main.ts or migrate.ts (or a tool / test harness).
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration once in main.ts and pass the typed config down.',
        },
      ],
    },
  },
  {
    files: [
      'apps/*/src/main.ts',
      'apps/*/src/migrate.ts',
      'libs/service-kit/src/run-main.ts',
      'tools/**/*.ts',
      'libs/testing/**/*.ts',
      'libs/harness/**/*.ts',
      'libs/*/src/testing/**/*.ts',
      'bench/**/*.ts',
      'resilience/**/*.ts',
      'e2e/**/*.ts',
      '**/*.spec.ts',
    ],
    rules: { 'no-restricted-properties': 'off', 'no-console': 'off' },
  },
  {
    // Production code of the services never loads the dev tooling (anvil launcher, registry
    // deployer): only its public constants, through @itp/dev-chain/constants.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing/**', 'apps/*/src/dev/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@itp/dev-chain',
              message:
                'Production code imports @itp/dev-chain/constants only (dev tooling stays out of the images).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tools import an app only through the entry points it declares in its package.json
    // `exports`: never its files by relative path, never `@itp/<app>` itself or an undeclared
    // subpath such as `@itp/<app>/src/…`.
    files: [
      'tools/**/*.{ts,mjs}',
      'bench/**/*.{ts,mjs}',
      'resilience/**/*.{ts,mjs}',
      'e2e/**/*.{ts,mjs}',
    ],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { ...MODULE_BOUNDARIES, allow: DECLARED_APP_ENTRY_POINTS },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.{1,2}/(.*/)?apps/', message: APP_CODE_MESSAGE },
            ...appPackages.map(({ name, entryPoints }) => ({
              regex: undeclaredImportOf(name, entryPoints),
              message: APP_CODE_MESSAGE,
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ignores: [BROWSER_SCRIPTS],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The pages' scripts (classic scripts served as they are: ES2017, no modules, no build step;
    // type-checked by tsconfig.browser.json): the browser's globals they use, none of Node's.
    files: [BROWSER_SCRIPTS],
    languageOptions: {
      ecmaVersion: 2017,
      sourceType: 'script',
      globals: Object.fromEntries(BROWSER_GLOBALS.map((name) => [name, 'readonly'])),
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // The demo pages load what they share, an ES module, with `import()` (ES2020 syntax, which
    // every browser with the rest of what they use has); that module itself (demo-api.js).
    files: ['apps/gateway/src/demo/browser/*.js'],
    languageOptions: { ecmaVersion: 2020 },
  },
  {
    files: ['apps/gateway/src/demo/browser/demo-api.js'],
    languageOptions: { sourceType: 'module' },
  },
  prettier,
);
