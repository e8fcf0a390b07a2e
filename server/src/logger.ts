import type { Config } from './config';

export interface Logger {
  debug: (message: string) => void;
  info: (message: string) => void;
  warn: (message: string, error?: unknown) => void;
  error: (message: string, error?: unknown) => void;
}

const levels = ['debug', 'info', 'warn', 'error', 'silent'] as const;

function detail(error: unknown): string {
  if (error === undefined) return '';
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function createLogger(level: Config['logLevel']): Logger {
  const enabled = (l: (typeof levels)[number]) => levels.indexOf(l) >= levels.indexOf(level);
  return {
    debug: (m) => {
      if (enabled('debug')) console.debug(m);
    },
    info: (m) => {
      if (enabled('info')) console.info(m);
    },
    warn: (m, e) => {
      if (enabled('warn')) console.warn(m, detail(e));
    },
    error: (m, e) => {
      if (enabled('error')) console.error(m, detail(e));
    },
  };
}
