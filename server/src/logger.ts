import { pino } from 'pino';
import type { Config } from './config';

/** Fields of a structured line (a request's method, path, status…), never a secret. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug: (message: string, fields?: LogFields) => void;
  info: (message: string, fields?: LogFields) => void;
  warn: (message: string, error?: unknown) => void;
  error: (message: string, error?: unknown) => void;
}

/**
 * One JSON object a line on standard output (pino), as log collectors read it: `level` by name,
 * `time` in ISO 8601, `msg`, then the line's fields; an error as `err` with its stack. Nothing
 * here knows about requests: what a line holds is decided where it is written.
 */
export function createLogger(level: Config['logLevel'], destination?: NodeJS.WritableStream): Logger {
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
  const withError = (error: unknown) => (error === undefined ? {} : { err: error instanceof Error ? error : new Error(String(error)) });
  return {
    debug: (m, fields) => log.debug(fields ?? {}, m),
    info: (m, fields) => log.info(fields ?? {}, m),
    warn: (m, e) => log.warn(withError(e), m),
    error: (m, e) => log.error(withError(e), m),
  };
}
