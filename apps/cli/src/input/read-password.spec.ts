import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { FailedError } from '../errors.js';
import { canPrompt, readPassword, type TerminalInput } from './read-password.js';

/** A terminal: stdin in raw mode or not, stderr that records what was written. */
function terminal() {
  const modes: boolean[] = [];
  const input: PassThrough & TerminalInput = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => void modes.push(mode),
  });
  let written = '';
  const output = { isTTY: true, write: (chunk: string) => ((written += chunk), true) };
  return { input, output, modes, written: () => written };
}

describe('readPassword', () => {
  it('reads one line in raw mode without echo; backspace, Ctrl-U and escape sequences edit', async () => {
    const t = terminal();
    const typed = readPassword(t.input, t.output, 'password for demo: ');
    t.input.write('wrongx');
    t.input.write('\u0015'); // Ctrl-U: start again
    t.input.write('demo-passwordd\u007f');
    t.input.write('\u001b[A\u001b[1;5C\u001bOP'); // an arrow key, Ctrl-arrow, F1
    t.input.write('\r');
    await expect(typed).resolves.toBe('demo-password');
    expect(t.written()).toBe('password for demo: \n');
    expect(t.modes).toEqual([true, false]);
    expect(t.input.isPaused()).toBe(true);
  });

  it('reads what arrives in one chunk, escape sequences within it too', async () => {
    const t = terminal();
    const typed = readPassword(t.input, t.output, '> ');
    t.input.write('pa\u001b[Dss\u001bOPword\rignored');
    await expect(typed).resolves.toBe('password');
  });

  it('Ctrl-C, Ctrl-D on an empty line, the end of input and an empty line cancel', async () => {
    for (const keys of ['ab\u0003', '\u0004', '\r']) {
      const t = terminal();
      const typed = readPassword(t.input, t.output, '> ');
      t.input.write(keys);
      await expect(typed).rejects.toBeInstanceOf(FailedError);
      expect(t.modes).toEqual([true, false]);
    }
    const t = terminal();
    const typed = readPassword(t.input, t.output, '> ');
    t.input.end('abc');
    await expect(typed).rejects.toThrow('the password prompt was cancelled');
  });

  it('prompts only when stdin and stderr are a terminal and stdin is open', () => {
    const t = terminal();
    expect(canPrompt(t.input, t.output)).toBe(true);
    expect(canPrompt(t.input, { ...t.output, isTTY: false })).toBe(false);
    expect(canPrompt(new PassThrough(), t.output)).toBe(false);
    t.input.destroy();
    expect(canPrompt(t.input, t.output)).toBe(false);
  });
});
