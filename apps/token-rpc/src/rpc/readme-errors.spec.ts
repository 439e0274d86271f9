import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { TokenService } from '../transactions/token-service.js';
import type { WalletService } from '../wallet/wallet-service.js';
import { tokenMethods } from './token-methods.js';

// The README's table of /token methods lists each method's service errors; the method table
// (which the OpenRPC document's x-service-errors come from) is the source. They must agree.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function readmeCodes(method: string): string[] | undefined {
  const row = readme.split('\n').find((line) => line.startsWith(`| ${method} `));
  const cells = row?.split('|').map((c) => c.trim());
  const last = cells?.[cells.length - 2];
  return last?.split(',').map((c) => c.trim().replaceAll('"', ''));
}

describe('README /token methods table', () => {
  const methods = tokenMethods({} as WalletService, {} as TokenService);

  it.each(methods.map((m) => [m.name, m] as const))(
    '%s lists the service errors the method documents',
    (name, method) => {
      const documented = [...new Set((method.errors ?? []).map((e) => e.resultCode))].sort();
      expect(readmeCodes(name)?.sort()).toEqual(documented);
    },
  );
});
