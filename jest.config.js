// Jest runs TypeScript as ESM through ts-jest (Veramo 7 and jose 6 are ESM-only; see docs/adr/0001).
// Run it as `NODE_OPTIONS=--experimental-vm-modules jest` (npm run test:jest does).
// ts-jest does not type-check here (isolatedModules); `npm run typecheck` does.
import { createDefaultEsmPreset } from 'ts-jest';

const preset = createDefaultEsmPreset({ tsconfig: '<rootDir>/tsconfig.json' });

/** @type {import('jest').Config} */
export default {
  ...preset,
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/'],
  // Built packages (npm run build: dist/libs/client, dist/images/*) hold package.json files with
  // the workspaces' names: never part of the module map.
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/data/'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // @peculiar/x509 (via @itp/x509) needs the Reflect metadata polyfill before it loads; jest's ESM
  // linker may load that CommonJS package before @itp/x509's own setup module runs.
  setupFiles: ['reflect-metadata'],
  // Closes what a harness started after its beforeAll had timed out (else it stays in the worker).
  setupFilesAfterEnv: ['<rootDir>/tools/jest/close-abandoned-starts.ts'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.mjs',
  maxWorkers: 2,
  // A worker whose heap passed 1 GB after a spec file is replaced by a fresh one. Every spec file
  // loads its own copy of the modules into the same worker (ESM through vm modules), and what a
  // copy leaves reachable stays: in the fresh-clone run of 2026-11-27 the two workers reached
  // ~4.5 GB each and the late, small spec files ran 5–10× slower than alone (jest 1,377 s against
  // ~450 s a day earlier). A restart costs a second or two.
  workerIdleMemoryLimit: '1GB',
  // Longest suites first, also on a fresh clone without jest's timing cache (tools/jest).
  testSequencer: '<rootDir>/tools/jest/slow-first-sequencer.mjs',
  testTimeout: 30000,
  // A test that leaves a handle open is a bug; fail loudly instead of hanging CI.
  forceExit: false,
};
