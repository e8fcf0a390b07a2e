import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { StoredEncoding } from './content-encoding';

/**
 * An answer serialised once, for hot paths that cache it: its brotli and gzip forms are made on
 * first use and kept with it, so that a cached answer costs no compression per request. `T` is
 * the answer it was made from, so that a route can only answer a cached value of its own answer
 * schema.
 */
export class SerializedJson<T> {
  declare private readonly answer?: T;
  private readonly forms: Partial<Record<StoredEncoding, Buffer>> = {};
  private readonly compressing: Partial<Record<StoredEncoding, Promise<Buffer>>> = {};

  private constructor(
    readonly json: string,
    private readonly brotliQuality: number,
  ) {}

  /**
   * `brotliQuality` 5 for an answer made seldom and sent often (the property list); 4 for one
   * made on a user's first look (a document list), where the compression's CPU counts as much
   * as the bytes (see `bytes`).
   */
  static of<T>(answer: T, brotliQuality = 5): SerializedJson<T> {
    return new SerializedJson<T>(JSON.stringify(answer), brotliQuality);
  }

  /**
   * An answer serialised elsewhere (by PostgreSQL's JSON functions): the caller vouches that
   * `json` is what `of` would make of a `T`.
   */
  static ofJson<T>(json: string, brotliQuality = 5): SerializedJson<T> {
    return new SerializedJson<T>(json, brotliQuality);
  }

  /**
   * The answer's bytes in `encoding`, compressed in libuv's threadpool (zlib's asynchronous
   * calls) on first use, so that a large answer's compression does not hold the event loop;
   * a kept form is answered at once, without a turn of the microtask queue.
   */
  bytesAsync(encoding: StoredEncoding): Buffer | Promise<Buffer> {
    const form = this.forms[encoding];
    if (form) return form;
    if (encoding === 'identity') return this.bytes(encoding);
    return (this.compressing[encoding] ??= (encoding === 'br' ? brotliAsync(this.json, brotliOptions(this.json, this.brotliQuality)) : gzipAsync(this.json)).then((made) => {
      this.forms[encoding] = made;
      return made;
    }));
  }

  /**
   * The answer's bytes in `encoding` when they are made already (identity always is, in effect:
   * a copy of the JSON), else undefined: the answers given below Koa send only what costs no
   * compression on the event loop, and leave a first compression to `bytesAsync`.
   */
  kept(encoding: StoredEncoding): Buffer | undefined {
    return encoding === 'identity' ? this.bytes(encoding) : this.forms[encoding];
  }

  /**
   * The answer's bytes in `encoding`, made on first use. Brotli at quality 5 by default (koa-compress
   * uses 4): a 450 kB document list takes 3 ms there and 0.6 s at quality 11, on the event loop.
   * At quality 4, a 250 kB document list took 1.5–2.2 ms of CPU against 3.4 ms at 5, and 0.16–0.24
   * ms of the event loop against 0.31–0.33 ms (asynchronously), for a fifth more bytes.
   */
  bytes(encoding: StoredEncoding): Buffer {
    let form = this.forms[encoding];
    if (!form) {
      if (encoding === 'br') {
        form = brotliCompressSync(this.json, brotliOptions(this.json, this.brotliQuality));
      } else if (encoding === 'gzip') {
        form = gzipSync(this.json);
      } else {
        form = Buffer.from(this.json);
      }
      this.forms[encoding] = form;
    }
    return form;
  }
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// The hint is the JSON's length in characters: its length in bytes would mean reading it all once
// more. The window is the least that holds the whole answer, up to brotli's default (4 MB): output
// within a byte of the same size, and a fraction of each encoder's memory, which zlib reports to V8.
// With 4 MB windows, first loads compressed side by side made V8 collect its whole heap every
// fraction of a second (8 December: 10.5 ms of V8's helper threads per first load, now 0.6). A
// window of 2^n bytes holds 2^n − 16 of the input.
function brotliOptions(json: string, quality: number) {
  const windowBits = Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(json.length + 16))));
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      [constants.BROTLI_PARAM_LGWIN]: windowBits,
    },
  };
}
