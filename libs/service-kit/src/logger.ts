import { pino, type Logger } from 'pino';
import { batchedFd, type BatchedWriter } from './batched-writer.js';
import { traceLogFields } from './tracing/tracing.js';

export type { Logger };

/**
 * Paths pino removes from every log line. Secrets are never logged on purpose either; this is the
 * second fence for an object logged whole by mistake.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secretKey',
  '*.mnemonic',
  '*.privateKey',
  '*.privateKeyHex',
  '*.hashKey',
  '*.tempKey',
  '*.token',
  '*.jwt',
  '*.clientSecret',
  '*.masterKey',
];

export interface LoggerOptions {
  name: string;
  level: string;
  /**
   * LOG_PRETTY: one readable line per entry (`time LEVEL service: message {fields}`) instead of
   * JSON, for a person at a terminal. The same redaction applies. Off by default.
   */
  pretty?: boolean;
}

export function createLogger({ name, level, pretty = false }: LoggerOptions): Logger {
  const common = {
    name,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // traceId / spanId of the active span on every line (nothing while tracing is off).
    mixin: traceLogFields,
  };
  const options = { ...common, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (pretty) return pino(options, prettyStream(process.stdout));
  const logger = pino(options, stdoutDestination());
  // Level `trace`: whether a line is written is decided on `logger` (logRequest), so a level
  // changed on it later applies to its access lines too.
  accessLoggers.set(logger, pino({ ...common, level: 'trace' }, batchedStdout()));
  return logger;
}

/** The access-line logger of each logger createLogger made (not of loggers made elsewhere). */
const accessLoggers = new WeakMap<Logger, Logger>();

/**
 * Where a service writes its access log lines (service-kit's access log: one line per request):
 * for a logger made by createLogger (not LOG_PRETTY), a logger with the same name, fields,
 * timestamps and trace fields whose lines go to standard output in batches (batchedStdout); for
 * any other logger (a test's, LOG_PRETTY), the logger itself. It has no redaction pass: an
 * access line holds only the fields logRequest builds (request id, method, URL, status, time,
 * trace ids), none of them under a redacted path, so the pass could never change one — it
 * only cost time on every request. Check the level on `logger`; write on this one.
 */
export function accessLoggerOf(logger: Logger): Logger {
  return accessLoggers.get(logger) ?? logger;
}

/** Bytes of access lines kept before they are written (one write instead of one per request). */
export const ACCESS_LOG_BATCH_BYTES = 4096;
/** The longest an access line waits to be written when fewer than a batch come in. */
export const ACCESS_LOG_FLUSH_MS = 100;

let batched: BatchedWriter | undefined;

/**
 * Standard output for access lines, shared by every logger of the process: written synchronously
 * (as stdoutDestination, for the same reason) but in batches (BatchedWriter) — once
 * ACCESS_LOG_BATCH_BYTES are kept, else ACCESS_LOG_FLUSH_MS after the first — so a busy service
 * makes one write() per batch instead of one per request (the per-request write was the largest
 * item of a getBlock's profile, issue 37). Nothing is lost on the way out: HttpService.close()
 * flushes after the drain (flushAccessLog) and the process's `exit` (process.exit after a
 * signal, a fatal error) writes what is left. A failed write (EPIPE: the reader has gone) drops
 * the batch and stops the writing, so the exit never hangs.
 */
function batchedStdout(): BatchedWriter {
  if (batched) return batched;
  const writer = batchedFd(1, ACCESS_LOG_BATCH_BYTES, ACCESS_LOG_FLUSH_MS);
  batched = writer;
  process.once('exit', () => writer.flush());
  return writer;
}

/** Writes the access lines kept so far (HttpService.close, after the drain). */
export function flushAccessLog(): void {
  batched?.flush();
}

/**
 * Standard output, written synchronously. pino's default asynchronous destination flushes at exit
 * with a loop that retries a failed write forever: when the reader of stdout has gone (the
 * process that started this one was killed: EPIPE), the process would never exit. A synchronous
 * write fails at once instead, and pino then stops writing (its broken-pipe handler).
 */
function stdoutDestination() {
  return pino.destination({ dest: 1, sync: true });
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** A pino destination that rewrites each JSON line as one readable line. */
export function prettyStream(out: { write(text: string): unknown }): { write(line: string): void } {
  return {
    write(line: string) {
      try {
        const {
          time,
          level,
          service,
          msg,
          name: _name,
          ...fields
        } = JSON.parse(line) as Record<string, unknown>;
        const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
        out.write(
          `${String(time)} ${LEVEL_NAMES[Number(level)] ?? String(level)} ${String(service)}: ${String(msg ?? '')}${rest}\n`,
        );
      } catch {
        out.write(line);
      }
    },
  };
}
