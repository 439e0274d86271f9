/**
 * A progress indicator on stderr while the CLI waits (a transaction until mined, a QR login until
 * approved): a spinner and a message on one line, redrawn in place, erased when done. Only when
 * stderr is a terminal: in pipes, files and CI logs it writes nothing, so stdout and stderr stay
 * clean to parse.
 */

export interface ProgressStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
}

export interface Progress {
  /** Replaces the message (shown at the next redraw). */
  update(message: string): void;
  /** Erases the line and stops redrawing; later calls do nothing. */
  stop(): void;
}

/** Calls `tick` every `ms` until the returned function is called. */
export type Every = (ms: number, tick: () => void) => () => void;

const FRAMES = ['|', '/', '-', '\\'];
const REDRAW_MS = 120;
const ERASE_LINE = '\r\x1b[2K';

const realEvery: Every = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref(); // never keeps the process alive on its own
  return () => clearInterval(timer);
};

const silent: Progress = { update: () => undefined, stop: () => undefined };

export function startProgress(
  stream: ProgressStream,
  message: string,
  every: Every = realEvery,
): Progress {
  if (!stream.isTTY) return silent;
  let text = message;
  let frame = 0;
  let stopped = false;
  const draw = (): void => {
    stream.write(`${ERASE_LINE}${FRAMES[frame % FRAMES.length]} ${text}`);
    frame += 1;
  };
  draw();
  const cancel = every(REDRAW_MS, draw);
  return {
    update(next) {
      text = next;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancel();
      stream.write(ERASE_LINE);
    },
  };
}
