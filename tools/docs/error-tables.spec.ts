import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ERROR_TABLES, ROOT, regenerate, renderServiceErrorTable } from './error-tables.js';

describe('README error tables', () => {
  it('renders one row per code, situations joined, in code order', () => {
    expect(
      renderServiceErrorTable({
        b: { resultCode: '503', when: 'down' },
        a: { resultCode: '400', when: 'bad | input' },
        c: { resultCode: '400', when: 'other' },
      }),
    ).toBe(
      [
        '| resultCode | when |',
        '| --- | --- |',
        '| `"400"` | bad \\| input; other |',
        '| `"503"` | down |',
      ].join('\n'),
    );
  });

  for (const table of ERROR_TABLES) {
    it(`${table.readme} matches its catalog (run npm run docs:errors after changing it)`, async () => {
      const text = readFileSync(join(ROOT, table.readme), 'utf8');
      expect(await regenerate(table, text)).toBe(text);
    });
  }
});
