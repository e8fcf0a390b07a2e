import { constants, fstatSync, openSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Lines are held until this many bytes are waiting (about a dozen request lines)… */
const batchBytes = 4096;
/** …or for this long at most, so that a quiet server's lines still show at once to a person. */
const flushMs = 200;
/** Lines wait for a destination that cannot take them now up to this many bytes; the lines beyond are dropped. */
const backlogBytes = 1024 * 1024;
/** Errors after which a destination is gone for good: a terminal hung up, a pipe nobody reads any more, a closed descriptor. */
const gone = new Set(['EIO', 'EPIPE', 'EBADF', 'ENXIO']);

let dropped = 0;
/** How many log lines were dropped because their destination could not take them. */
export function droppedLogLines(): number {
  return dropped;
}

const linesIn = (data: Buffer) => Math.max(1, data.reduce((n, byte) => (byte === 0x0a ? n + 1 : n), 0));

/**
 * Where log lines go (a file descriptor), gathered into one write of `batchBytes`, or written
 * after `flushMs`. A write per request line cost about a tenth of the busiest call's
 * throughput; a write of a dozen lines costs about what one line's did. Writes are synchronous
 * (a 4 kB write is microseconds; handing it to libuv's thread pool cost more than that on the
 * event loop), and whatever waits is written on exit, so a shutdown, `process.exit` and an
 * uncaught exception lose nothing; SIGKILL loses the last 200 ms at most.
 *
 * A write never waits for its destination. A terminal or a pipe nobody reads (a dropped SSH
 * session, a stuck log collector) answers EAGAIN on a non-blocking descriptor (see
 * `ownDescriptor`): the lines wait for the next try, up to `backlogBytes`, and the lines beyond
 * are dropped and counted. A destination gone for good is no longer written to. (pino's
 * sonic-boom retried EAGAIN in a busy wait of the main thread, and any other error of its exit
 * flush forever, so a server whose terminal went away answered nothing and ignored SIGTERM.)
 */
export class LineBatches {
  private waiting: Buffer[] = [];
  private bytes = 0;
  private broken = false;

  constructor(private readonly fd: number) {
    setInterval(() => this.flushSync(), flushMs).unref();
    process.once('exit', () => this.flushSync());
  }

  write(line: string): void {
    const data = Buffer.from(line);
    if (this.broken || this.bytes + data.length > backlogBytes) {
      dropped += linesIn(data);
      return;
    }
    this.waiting.push(data);
    this.bytes += data.length;
    if (this.bytes >= batchBytes) this.flushSync();
  }

  /** Writes what waits, as far as the destination takes it now (pino calls it by this name). */
  flushSync(): void {
    if (this.bytes === 0 || this.broken) return;
    let data = this.waiting.length === 1 ? this.waiting[0]! : Buffer.concat(this.waiting);
    this.waiting = [];
    this.bytes = 0;
    try {
      while (data.length > 0) data = data.subarray(writeSync(this.fd, data));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EAGAIN') {
        this.waiting = [data];
        this.bytes = data.length;
        return;
      }
      dropped += linesIn(data);
      if (gone.has(code)) this.broken = true;
    }
  }
}

/**
 * A descriptor of our own for what `fd` writes to, non-blocking, when it is a terminal or a
 * pipe: Node makes standard output's terminal blocking, and a pipe is blocking as its parent
 * made it, so a write that nobody reads waited in the kernel with the main thread. Opening the
 * terminal or the pipe again (Linux's /proc/self/fd) gives a file description whose flags are
 * ours alone. Anything else (a file never blocks; a socket cannot be opened again), or another
 * system: `fd` itself.
 */
export function ownDescriptor(fd: number): number {
  try {
    if (!isatty(fd) && !fstatSync(fd).isFIFO()) return fd;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return fd;
  }
}
