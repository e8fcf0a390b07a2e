import { gzipSync } from 'node:zlib';

/**
 * An answer serialised once, for hot paths that cache it: its gzip form is made on first use
 * and kept with it, so that a cached answer costs no compression per request.
 */
export class SerializedJson {
  private gzipped: Buffer | undefined;

  constructor(readonly json: string) {}

  static of(value: unknown): SerializedJson {
    return new SerializedJson(JSON.stringify(value));
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json));
  }
}
