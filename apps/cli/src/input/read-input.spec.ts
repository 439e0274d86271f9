import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from '@jest/globals';
import { UsageError } from '../errors.js';
import { StdinReader, readJson, readSecret, readText } from './read-input.js';

const stdinOf = (text: string) => new StdinReader(Readable.from([Buffer.from(text)]));
const dir = mkdtempSync(join(tmpdir(), 'itp-read-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('StdinReader', () => {
  it('reads all of stdin without one trailing newline', async () => {
    expect(await stdinOf('secret\n').read('x')).toBe('secret');
    expect(await stdinOf('a\r\n').read('x')).toBe('a');
    expect(await stdinOf('a\n\n').read('x')).toBe('a\n');
  });

  it('refuses a second reader instead of hanging', async () => {
    const stdin = stdinOf('{}');
    await stdin.read('--password-stdin');
    await expect(stdin.read('a JSON document (-)')).rejects.toThrow(
      new UsageError(
        'stdin is already used for --password-stdin; it cannot also give a JSON document (-)',
      ),
    );
  });
});

describe('readSecret', () => {
  it('takes the option or stdin, exactly one of them', async () => {
    expect(await readSecret('password', 'p', false, stdinOf(''))).toBe('p');
    expect(await readSecret('password', undefined, true, stdinOf('q\n'))).toBe('q');
    await expect(readSecret('password', 'p', true, stdinOf('q'))).rejects.toThrow(/not both/);
    await expect(readSecret('password', undefined, false, stdinOf(''))).rejects.toThrow(
      '--password-stdin (or --password) is required',
    );
    expect(await readSecret('secret', undefined, false, stdinOf(''), false)).toBeUndefined();
  });

  it('refuses an empty secret', async () => {
    await expect(readSecret('secret-key', undefined, true, stdinOf('\n'))).rejects.toThrow(
      'the secret-key is empty',
    );
  });
});

describe('readJson', () => {
  it('parses a file, or stdin for -', async () => {
    const file = join(dir, 'vc.json');
    writeFileSync(file, '{"a":1}');
    expect(await readJson(file, stdinOf(''))).toEqual({ a: 1 });
    expect(await readJson('-', stdinOf('[1,2]\n'))).toEqual([1, 2]);
  });

  it("reads a relative file name from the caller's directory, not the process's", async () => {
    writeFileSync(join(dir, 'mine.json'), '{"b":2}');
    expect(await readJson('mine.json', stdinOf(''), dir)).toEqual({ b: 2 });
    await expect(readJson('mine.json', stdinOf(''), join(dir, 'elsewhere'))).rejects.toThrow(
      'no such file: mine.json',
    );
  });

  it('says which input is missing or not JSON', async () => {
    await expect(readJson(join(dir, 'absent.json'), stdinOf(''))).rejects.toThrow(
      `no such file: ${join(dir, 'absent.json')}`,
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{nope');
    await expect(readJson(bad, stdinOf(''))).rejects.toThrow(new RegExp(`^${bad} is not JSON`));
    await expect(readJson('-', stdinOf('x'))).rejects.toThrow(/^stdin is not JSON/);
  });
});

describe('readText', () => {
  it('reads a file as it is, or stdin for - named by what it gives', async () => {
    const file = join(dir, 'vc.jwt');
    writeFileSync(file, 'a.b.c\n');
    expect(await readText(file, stdinOf(''))).toBe('a.b.c\n');
    const stdin = stdinOf('a.b.c\n');
    expect(await readText('-', stdin, '.', 'a VC')).toBe('a.b.c');
    await expect(readText('-', stdin)).rejects.toThrow(
      'stdin is already used for a VC (-); it cannot also give a JSON document (-)',
    );
  });
});
