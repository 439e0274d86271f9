import debug from 'debug';

/**
 * Veramo's agent makes a `debug` logger on every call (`Debug('veramo:agent:' + method)`, twice
 * per call), and each new logger asks whether stderr is a terminal (an `isatty` system call) to
 * choose colours (a cost that shows in the create-vc profile, bench/RESULTS.md). Colours are
 * decided once here instead: off, unless DEBUG_COLORS chose them. Loggers stay silent unless
 * DEBUG names them.
 */
export function decideDebugColoursOnce(): void {
  const options = debug.inspectOpts;
  if (options && !('colors' in options)) options.colors = false;
}
