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

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
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
    try {
      await pipeline(source, meter, createWriteStream(tmp, { mode: 0o600 }));
      const contentType = sniffContentType(head);
      if (!contentType || !options.accept.includes(contentType)) {
        throw new HttpError(415, options.wrongTypeMessage);
      }
      const sha256 = hash.digest('hex');
      const target = this.pathOf(sha256);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
      return { sha256, size, contentType };
    } finally {
      await rm(tmp, { force: true });
    }
  }
}
