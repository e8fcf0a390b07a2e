import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../../http/errors';
import { sniffContentType, type SniffedType } from './sniff';

export interface StoredBlob {
  sha256: string;
  size: number;
  contentType: SniffedType;
}

/** A file a restore brings back: its type as the stored file's row says it. */
export interface AdoptedFile {
  sha256: string;
  size: number;
  contentType: string;
}

/** Inclusive byte offsets, as in a Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file opened for reading; whoever receives it calls `close` once done. */
export interface OpenedFile {
  /** The size of the opened file, so that what is sent matches what was checked. */
  size: number;
  /**
   * Writes bytes `start`..`end` into `out` without ending it, at the pace `out` takes them;
   * resolves once `out` has taken the last, or early when `out` is destroyed (a cancelled
   * download), and rejects when the file cannot be read.
   */
  writeTo: (out: Writable, range: ByteRange) => Promise<void>;
  close: () => Promise<void>;
}

/** A checked upload still in its temp file (see FileStore.receive). */
export interface ReceivedFile extends StoredBlob {
  /** The temp file on this machine's disk, to be read (sniffed, resized) before `keep` or `discard`. */
  path: string;
  /** Puts the file into the store under its hash. */
  keep: () => Promise<StoredBlob>;
  /** Removes the temp file; harmless after `keep` or a second time. */
  discard: () => Promise<void>;
}

export interface PutOptions {
  maxBytes: number;
  /** Content types (by magic bytes) accepted; anything else is a 415. */
  accept: readonly SniffedType[];
  /** Sentence for the 413 answer, e.g. 'Image must be less than 10MB'. */
  tooLargeMessage: string;
  wrongTypeMessage: string;
}

/**
 * Content-addressed files: every stored file is named by the SHA-256 of its bytes. Two
 * implementations, chosen by FILE_STORE: a folder on this machine (LocalFileStore, the default)
 * and an S3-compatible bucket (S3FileStore), which several instances can share. Uploads are
 * always checked in a temp file on this machine first (see TempUploads), so a refused upload
 * never reaches the store.
 */
export interface FileStore {
  /** Where the files are, for operators: a folder or `s3://bucket/prefix`. */
  readonly location: string;
  /** This machine's folder of uploads being received (per instance, even when the store is shared). */
  readonly tempDir: string;
  exists: (sha256: string) => Promise<boolean>;
  /** The file opened for reading, or null when the store does not have it. */
  open: (sha256: string) => Promise<OpenedFile | null>;
  /**
   * Streams `source` into a temp file of its own, counting its size (a 413 the moment it passes
   * `maxBytes`) and hashing it, then checks its type by its first bytes (415). The file is not in
   * the store yet: the caller keeps it (`keep`) or reads it and lets it go (`discard`); a refused
   * upload leaves nothing behind.
   */
  receive: (source: Readable, options: PutOptions) => Promise<ReceivedFile>;
  /**
   * Moves `file`, a file on this machine already checked to be `blob` (a restore's), into the
   * store under its hash. On the local store it must sit under `tempDir`, to be renamed.
   */
  adopt: (file: string, blob: AdoptedFile) => Promise<void>;
  /** `receive` and `keep` in one. */
  put: (source: Readable, options: PutOptions) => Promise<StoredBlob>;
  /** Removes temp files older than `minAgeMs` (uploads cut off by a crash); answers how many. */
  sweepTemp: (minAgeMs: number, now?: number) => Promise<number>;
  /**
   * Removes the stored file of this content unless it was written in the last `minAgeMs`: a
   * fresh copy belongs to an upload of the same bytes that has kept its file and not yet written
   * its row. Answers whether it removed the file.
   */
  removeIfUntouched: (sha256: string, minAgeMs: number, now?: number) => Promise<boolean>;
  /** The hashes of every stored file, with when each was last written. */
  list: () => Promise<{ sha256: string; mtimeMs: number }[]>;
  /** Lets go of connections; the store is not used after. */
  close: () => void;
}

export const sha256Name = /^[0-9a-f]{64}$/;

/**
 * The checking half of every store: uploads are streamed into a temp folder on this machine,
 * counted, hashed and sniffed there, and handed to the store's `keep` only once they pass.
 */
export class TempUploads {
  constructor(readonly dir: string) {}

  async receive(source: Readable, options: PutOptions, keep: (tmp: string, blob: StoredBlob) => Promise<void>): Promise<ReceivedFile> {
    // Synchronous on purpose: no await before `pipeline` takes the source, or an early error
    // event of the source (a missing file) would go unhandled.
    mkdirSync(this.dir, { recursive: true });
    const tmp = path.join(this.dir, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > options.maxBytes) {
          callback(new HttpError(413, options.tooLargeMessage));
          return;
        }
        if (head.length < 512) head = Buffer.concat([head, chunk.subarray(0, 512 - head.length)]);
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    const discard = () => rm(tmp, { force: true });
    try {
      await pipeline(source, meter, createWriteStream(tmp, { mode: 0o600 }));
      const contentType = sniffContentType(head);
      if (!contentType || !options.accept.includes(contentType)) {
        throw new HttpError(415, options.wrongTypeMessage);
      }
      const blob: StoredBlob = { sha256: hash.digest('hex'), size, contentType };
      return {
        ...blob,
        path: tmp,
        discard,
        keep: async () => {
          await keep(tmp, blob);
          return blob;
        },
      };
    } catch (error) {
      await discard();
      throw error;
    }
  }

  /**
   * Removes temp files older than `minAgeMs`: uploads cut off by a crash or a kill, which no
   * request will ever finish. Only old ones: a request of this instance (or of another sharing
   * the folder) may be receiving an upload this very moment.
   */
  async sweep(minAgeMs: number, now = Date.now()): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || now - info.mtimeMs < minAgeMs) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }
}

/** `receive` then `keep`, the temp file removed whatever happens. */
export async function putThrough(store: Pick<FileStore, 'receive'>, source: Readable, options: PutOptions): Promise<StoredBlob> {
  const received = await store.receive(source, options);
  try {
    return await received.keep();
  } finally {
    await received.discard();
  }
}
