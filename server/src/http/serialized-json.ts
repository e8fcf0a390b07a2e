import { gzipSync } from 'node:zlib';

/**
 * An answer serialised once, for hot paths that cache it: its gzip form is made on first use
 * and kept with it, so that a cached answer costs no compression per request. `T` is the answer
 * it was made from, so that a route can only answer a cached value of its own answer schema.
 */
export class SerializedJson<T> {
  declare private readonly answer?: T;
  private gzipped: Buffer | undefined;

  private constructor(readonly json: string) {}

  static of<T>(answer: T): SerializedJson<T> {
    return new SerializedJson<T>(JSON.stringify(answer));
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json));
  }
}
