import { pino } from 'pino';
import { prettyFactory } from 'pino-pretty';
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
 * One JSON object a line on standard output (pino; readable lines at a terminal, see
 * `consoleDestination`), as log collectors read it: `level` by name,
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
  // A database error's values (a visitor's name, e-mail, message) never reach a line.
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
 * throughput; a write of a dozen lines costs about what one line's did. Writes stay
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

// eslint-disable-next-line no-control-regex -- exactly the characters a terminal acts on
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Lines for a person at a terminal (pino-pretty): time, level, message, the rest of the fields
 * on the same line; a request as `GET /api/properties 200 0.42 ms`. Written through `out` as the
 * JSON lines would be (batched, and flushed on exit).
 */
export function readableDestination(out: pino.DestinationStream, colorize: boolean): pino.DestinationStream {
  const pretty = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid', singleLine: true });
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      if (entry.msg === 'request') {
        const { method, path, status, durationMs, ...rest } = entry;
        entry = { ...rest, msg: `${String(method)} ${String(path)} ${String(status)} ${String(durationMs)} ms` };
      }
      // A message may quote what someone sent (an SMTP server's refusal): no escape sequence of
      // theirs reaches the terminal. The other fields are printed as JSON, escaped.
      if (typeof entry.msg === 'string') entry.msg = entry.msg.replace(terminalControls, '\uFFFD');
      out.write(pretty(entry));
    },
  };
}

/**
 * Where the process's lines go: readable lines when standard output is a terminal (`pnpm start`
 * in a shell), one JSON object a line for everything else (a file, a pipe, CI, Docker, a log
 * collector), which is what machines read.
 */
export function consoleDestination(isTTY: boolean, dest: number | string = 1): pino.DestinationStream {
  const out = logDestination(dest);
  return isTTY ? readableDestination(out, true) : out;
}

let stdout: pino.DestinationStream | undefined;

/** Standard output as a destination, one for the process however many loggers write to it. */
function standardOutput(): pino.DestinationStream {
  return (stdout ??= consoleDestination(process.stdout.isTTY === true));
}
