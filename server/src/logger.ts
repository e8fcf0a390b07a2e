import { pino } from 'pino';
import type { Config } from './config';
import { withoutQueryValues } from './db/error-values';

/** Fields of a structured line (a request's method, path, status…), never a secret. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug: (message: string, fields?: LogFields) => void;
  info: (message: string, fields?: LogFields) => void;
  warn: (message: string, error?: unknown) => void;
  error: (message: string, error?: unknown) => void;
}

let lastMs = 0;
let lastTime = '';
/** pino's isoTime, made once per millisecond: a busy server writes many lines in each. */
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/**
 * One JSON object a line on standard output (pino), as log collectors read it: `level` by name,
 * `time` in ISO 8601, `msg`, then the line's fields; an error as `err` with its stack (a database
 * error without its query's values, see db/error-values.ts). Nothing
 * here knows about requests: what a line holds is decided where it is written.
 */
export function createLogger(level: Config['logLevel'], destination: pino.DestinationStream = standardOutput()): Logger {
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  // A database error's values (a visitor's name, e-mail, message) never reach a line (issue 33).
  const withError = (error: unknown) => {
    if (error === undefined) return {};
    const clean = withoutQueryValues(error);
    return { err: clean instanceof Error ? clean : new Error(String(clean)) };
  };
  return {
    debug: (m, fields) => log.debug(fields ?? {}, m),
    info: (m, fields) => log.info(fields ?? {}, m),
    warn: (m, e) => log.warn(withError(e), m),
    error: (m, e) => log.error(withError(e), m),
  };
}

/** Lines are held until this many bytes are waiting (about a dozen request lines)… */
const logBatchBytes = 4096;
/** …or for this long at most, so that a quiet server's lines still show at once to a person. */
const logFlushMs = 200;

/**
 * Where lines go (a file descriptor or a file): gathered into one write of `logBatchBytes`, or
 * written after `logFlushMs`. A write per request line cost about a tenth of the busiest call's
 * throughput (issue 20); a write of a dozen lines costs about what one line's did. Writes stay
 * synchronous (a 4 kB write is microseconds; handing it to libuv's thread pool cost more than
 * that on the event loop). The price: the lines of the last 200 ms at most are lost when the
 * process is killed (SIGKILL, the machine going down); whatever is waiting is written on exit,
 * so a shutdown, `process.exit` and an uncaught exception lose nothing.
 */
export function logDestination(dest: number | string): pino.DestinationStream {
  const destination = pino.destination({ dest, sync: true, minLength: logBatchBytes });
  const timer = setInterval(() => destination.flush(), logFlushMs).unref();
  // pino registers this flush itself only for asynchronous destinations.
  const flushOnExit = () => destination.flushSync();
  process.once('exit', flushOnExit);
  destination.once('close', () => {
    clearInterval(timer);
    process.removeListener('exit', flushOnExit);
  });
  return destination;
}

let stdout: pino.DestinationStream | undefined;

/** Standard output as a destination, one for the process however many loggers write to it. */
function standardOutput(): pino.DestinationStream {
  return (stdout ??= logDestination(1));
}
