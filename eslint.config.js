// One lint config for the whole workspace. `npm run lint` fails on any warning.
import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
      // Apps never import apps; libs never import apps; libs import only libs.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
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
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  prettier,
);
