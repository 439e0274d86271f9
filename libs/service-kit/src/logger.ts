import { pino, type Logger } from 'pino';
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
  const options = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // traceId / spanId of the active span on every line (nothing while tracing is off).
    mixin: traceLogFields,
  };
  return pretty ? pino(options, prettyStream(process.stdout)) : pino(options, stdoutDestination());
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
