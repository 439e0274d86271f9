/**
 * A password typed at the terminal, not echoed: the prompt goes to stderr, the terminal is put in
 * raw mode until Enter. Used when a command needs the password again (step-up) and itp runs in a
 * terminal; scripts give it with --password-stdin instead.
 */
import type { Readable } from 'node:stream';
import { FailedError } from '../errors.js';
import type { ProgressStream } from '../output/progress.js';

/** stdin as a terminal may be: node's tty.ReadStream has these. */
export interface TerminalInput extends Readable {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Whether a password can be asked for: stdin and stderr are a terminal and stdin is still open. */
export function canPrompt(input: TerminalInput, output: ProgressStream): boolean {
  return (
    input.isTTY === true &&
    typeof input.setRawMode === 'function' &&
    output.isTTY === true &&
    !input.readableEnded &&
    !input.destroyed
  );
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u007f', '\b']);
const CTRL_U = '\u0015';
const ESC = '\u001b';

/**
 * Writes `prompt` to `output` and reads one line from the terminal `input` without echo.
 * Backspace and Ctrl-U edit, escape sequences are ignored; Enter ends. Ctrl-C, or Ctrl-D on an empty line, cancels (a
 * FailedError, exit 1), as does the end of input; an empty line is refused the same way.
 */
export function readPassword(
  input: TerminalInput,
  output: ProgressStream,
  prompt: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    let escape: 'start' | 'sequence' | undefined;
    const finish = (error?: Error): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const cancelled = (): FailedError =>
      new FailedError('the password prompt was cancelled', 'cancelled');
    const onEnd = (): void => finish(cancelled());
    const onData = (chunk: Buffer | string): void => {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          finish(typed === '' ? new FailedError('no password was typed', 'cancelled') : undefined);
          return;
        }
        if (char === CTRL_C || (char === CTRL_D && typed === '')) {
          finish(cancelled());
          return;
        }
        // Escape sequences (arrow and function keys: ESC [ … final, ESC O x, Alt-x) type nothing.
        if (escape === 'start') {
          escape = char === '[' || char === 'O' ? 'sequence' : undefined;
          continue;
        }
        if (escape === 'sequence') {
          if (char >= '@' && char <= '~') escape = undefined;
          continue;
        }
        if (char === ESC) {
          escape = 'start';
          continue;
        }
        if (BACKSPACE.has(char)) typed = [...typed].slice(0, -1).join('');
        else if (char === CTRL_U) typed = '';
        else if (char >= ' ') typed += char;
      }
    };
    output.write(prompt);
    input.setRawMode?.(true);
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
  });
}
