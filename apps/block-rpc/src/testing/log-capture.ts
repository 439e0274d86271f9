import { pino } from 'pino';
import type { Logger } from '@itp/service-kit';

/** One log entry as pino writes it. */
export interface LogEntry {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger that keeps what it is given, for tests that assert on log lines. */
export interface LogCapture {
  logger: Logger;
  entries: LogEntry[];
  /** Entries whose message contains `text`. */
  matching(text: string): LogEntry[];
}

export function captureLogs(level = 'debug'): LogCapture {
  const entries: LogEntry[] = [];
  const logger = pino(
    { level, base: { service: 'block-rpc' } },
    { write: (line: string) => void entries.push(JSON.parse(line) as LogEntry) },
  );
  return {
    logger,
    entries,
    matching: (text) => entries.filter((entry) => entry.msg.includes(text)),
  };
}
