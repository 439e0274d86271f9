import { pino, type Logger } from 'pino';

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
}

export function createLogger({ name, level }: LoggerOptions): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
