import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../../http/errors';
import { sniffContentType, type SniffedType } from './sniff';

export interface StoredBlob {
  sha256: string;
  size: number;
  contentType: SniffedType;
}

/** A stored file opened for reading; whoever receives it closes `handle`. */
export interface OpenedFile {
  handle: FileHandle;
  /** The size of the open file, so that what is sent matches what was checked. */
  size: number;
}

/** A checked upload still in its temp file (see FileStore.receive). */
export interface ReceivedFile extends StoredBlob {
  /** The temp file, to be read before `keep` or `discard`. */
  path: string;
  /** Moves the file into the store under its hash. */
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
 * Content-addressed files under `root`: bytes are streamed to a temp file while their size is
 * counted and their SHA-256 computed, checked, then renamed into `ab/cd/<sha256>`. Nothing is
 * held whole in memory and a failed upload leaves nothing behind. The same interface can be
 * backed by S3-compatible storage.
 */
export class FileStore {
  constructor(readonly root: string) {}

  pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async exists(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  /** The file opened for reading, or null when it is not on disk. */
  async open(sha256: string): Promise<OpenedFile | null> {
    const handle = await open(this.pathOf(sha256), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return null;
    try {
      return { handle, size: (await handle.stat()).size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Streams `source` into a temp file of its own, counting its size (a 413 the moment it passes
   * `maxBytes`) and hashing it, then checks its type by its first bytes (415). The file is not in
   * the store yet: the caller keeps it (`keep`) or reads it and lets it go (`discard`); a refused
   * upload leaves nothing behind.
   */
  async receive(source: Readable, options: PutOptions): Promise<ReceivedFile> {
    // Synchronous on purpose: no await before `pipeline` takes the source, or an early error
    // event of the source (a missing file) would go unhandled.
    const tmpDir = path.join(this.root, 'tmp');
    mkdirSync(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
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
          const target = this.pathOf(blob.sha256);
          await mkdir(path.dirname(target), { recursive: true });
          await rename(tmp, target);
          return blob;
        },
      };
    } catch (error) {
      await discard();
      throw error;
    }
  }

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    const received = await this.receive(source, options);
    try {
      return await received.keep();
    } finally {
      await received.discard();
    }
  }
}
