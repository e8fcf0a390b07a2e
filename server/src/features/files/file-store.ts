import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
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

  /**
   * Removes temp files older than `minAgeMs`: uploads cut off by a crash or a kill, which no
   * request will ever finish. Only old ones: another instance sharing the store may be receiving
   * an upload this very moment. Answers how many were removed.
   */
  async sweepTemp(minAgeMs: number, now = Date.now()): Promise<number> {
    const tmpDir = path.join(this.root, 'tmp');
    const names = await readdir(tmpDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(tmpDir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || now - info.mtimeMs < minAgeMs) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  /**
   * Removes the stored file of this content unless it was written in the last `minAgeMs`. A
   * fresh copy is an upload of the same bytes that has just kept its file and not yet written its
   * row: it must stay. The file is first renamed aside, atomically, and its age read there, so
   * that a copy renamed into place between a look and an unlink is never the one removed; a
   * fresh one is put back. Answers whether it removed the file.
   */
  async removeIfUntouched(sha256: string, minAgeMs: number, now = Date.now()): Promise<boolean> {
    const target = this.pathOf(sha256);
    const tmpDir = path.join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const aside = path.join(tmpDir, `${randomUUID()}.removing`);
    try {
      await rename(target, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    const info = await stat(aside);
    if (now - info.mtimeMs < minAgeMs) {
      // Same bytes by definition of the name, so overwriting a copy put there meanwhile loses nothing.
      await rename(aside, target);
      return false;
    }
    await rm(aside, { force: true });
    return true;
  }

  /** The hashes of every file in the store (the temp folder aside), with when each was last written. */
  async list(): Promise<{ sha256: string; mtimeMs: number }[]> {
    const found: { sha256: string; mtimeMs: number }[] = [];
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !/^[0-9a-f]{64}$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file !== this.pathOf(entry.name)) continue;
      const info = await stat(file).catch(() => null);
      if (info) found.push({ sha256: entry.name, mtimeMs: info.mtimeMs });
    }
    return found;
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
