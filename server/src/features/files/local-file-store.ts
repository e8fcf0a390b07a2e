import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { putThrough, sha256Name, TempUploads, type ByteRange, type FileStore, type OpenedFile, type PutOptions, type ReceivedFile, type StoredBlob, type AdoptedFile } from './file-store';

/**
 * Content-addressed files under `root` on this machine: `ab/cd/<sha256>`, with uploads received
 * in `root/tmp` and renamed into place, so a file is either whole in the store or not there.
 */
export class LocalFileStore implements FileStore {
  readonly tempDir: string;
  private readonly uploads: TempUploads;

  constructor(readonly root: string) {
    this.tempDir = path.join(root, 'tmp');
    this.uploads = new TempUploads(this.tempDir);
  }

  get location(): string {
    return this.root;
  }

  pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async exists(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async open(sha256: string): Promise<OpenedFile | null> {
    const handle = await open(this.pathOf(sha256), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return null;
    try {
      return {
        size: (await handle.stat()).size,
        writeTo: (out, range) => writeRange(handle, out, range),
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  receive(source: Readable, options: PutOptions): Promise<ReceivedFile> {
    return this.uploads.receive(source, options, (tmp, blob) => this.adopt(tmp, blob));
  }

  async adopt(file: string, blob: AdoptedFile): Promise<void> {
    const target = this.pathOf(blob.sha256);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
  }

  put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    return putThrough(this, source, options);
  }

  sweepTemp(minAgeMs: number, now = Date.now()): Promise<number> {
    return this.uploads.sweep(minAgeMs, now);
  }

  /**
   * The file is first renamed aside, atomically, and its age read there, so that a copy renamed
   * into place between a look and an unlink is never the one removed; a fresh one is put back.
   */
  async removeIfUntouched(sha256: string, minAgeMs: number, now = Date.now()): Promise<boolean> {
    const target = this.pathOf(sha256);
    await mkdir(this.tempDir, { recursive: true });
    const aside = path.join(this.tempDir, `${randomUUID()}.removing`);
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

  async list(): Promise<{ sha256: string; mtimeMs: number }[]> {
    const found: { sha256: string; mtimeMs: number }[] = [];
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !sha256Name.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file !== this.pathOf(entry.name)) continue;
      const info = await stat(file).catch(() => null);
      if (info) found.push({ sha256: entry.name, mtimeMs: info.mtimeMs });
    }
    return found;
  }

  close(): void {
    // Nothing is held between calls.
  }
}

const bufferSize = 256 * 1024;
const buffersPerResponse = 4;

/**
 * The bytes go through a few buffers that are reused once `out` has taken them: a read stream
 * would allocate a fresh buffer per chunk, and V8 lets such garbage reach tens of megabytes
 * before it collects, so a 100 MB download would grow the server by that much.
 */
async function writeRange(handle: FileHandle, out: Writable, range: ByteRange): Promise<void> {
  const free: Buffer[] = Array.from({ length: buffersPerResponse }, () => Buffer.allocUnsafeSlow(bufferSize));
  let waiting: (() => void) | null = null;
  let failed: Error | null = null;
  const release = (buffer: Buffer) => (error?: Error | null) => {
    if (error) failed = error;
    free.push(buffer);
    waiting?.();
    waiting = null;
  };
  // The socket closing early (the investor cancelled) also wakes the loop.
  const onClose = () => waiting?.();
  out.once('close', onClose);
  try {
    let position = range.start;
    while (position <= range.end) {
      while (free.length === 0 && !out.destroyed && !failed) await new Promise<void>((resolve) => (waiting = resolve));
      if (failed) throw failed;
      if (out.destroyed) return;
      const buffer = free.pop() as Buffer;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(bufferSize, range.end - position + 1), position);
      if (bytesRead === 0) throw new Error('the file is shorter than its size');
      position += bytesRead;
      out.write(bytesRead === bufferSize ? buffer : buffer.subarray(0, bytesRead), release(buffer));
    }
  } finally {
    out.off('close', onClose);
  }
}
