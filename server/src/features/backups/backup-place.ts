import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BackupPlace as BackupPlaceConfig } from '../../config';

/** An archive in a backup place. */
export interface ArchiveEntry {
  name: string;
  size: number;
}

/**
 * Where backups are kept: a folder or an S3 bucket. Each holds the archives side by side, and a
 * `files/` folder of the document files every archive there names, each kept once.
 *
 *   everest-backup-2026-12-02T020000.000Z.tar.enc   one backup: manifest, tables, secrets
 *   files/<name>                                      a document file (encrypted, by a keyed name)
 */
export interface BackupPlace {
  /** A folder or `s3://bucket/prefix`, for people. */
  readonly location: string;
  listArchives: () => Promise<ArchiveEntry[]>;
  /** Names in `files/`. */
  listFiles: () => Promise<Set<string>>;
  /**
   * Writes an archive or a file from `source`. It appears under its name only once whole (a
   * temporary name then a rename; an S3 object appears only when its upload completes).
   * Answers its size.
   */
  write: (key: string, source: Readable) => Promise<number>;
  read: (key: string) => Promise<Readable>;
  remove: (key: string) => Promise<void>;
  close: () => void;
}

export const archivePattern = /^everest-backup-(\d{4}-\d{2}-\d{2}T\d{6}\.\d{3}Z)\.tar(\.enc)?$/;

/** `everest-backup-2026-12-02T020000.000Z.tar.enc`: sorts by time, and says what it is. */
export function archiveName(takenAt: Date, encrypted: boolean): string {
  const stamp = takenAt.toISOString().replace(/:/g, '');
  return `everest-backup-${stamp}.tar${encrypted ? '.enc' : ''}`;
}

export function archiveTime(name: string): Date | null {
  const match = archivePattern.exec(name);
  if (!match?.[1]) return null;
  const t = match[1];
  return new Date(`${t.slice(0, 11)}${t.slice(11, 13)}:${t.slice(13, 15)}:${t.slice(15)}`);
}

/** A folder on this machine (or a mounted disk). */
export class FolderPlace implements BackupPlace {
  /** Folders made already: a backup of 100,000 new files would otherwise make each twice per file. */
  private readonly made = new Set<string>();

  constructor(readonly location: string) {}

  private async folder(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.made.add(dir);
  }

  async listArchives(): Promise<ArchiveEntry[]> {
    const names = await readdir(this.location).catch(() => [] as string[]);
    const found: ArchiveEntry[] = [];
    for (const name of names.filter((n) => archivePattern.test(n)).sort()) {
      const info = await stat(path.join(this.location, name)).catch(() => null);
      if (info?.isFile()) found.push({ name, size: info.size });
    }
    return found;
  }

  async listFiles(): Promise<Set<string>> {
    return new Set(await readdir(path.join(this.location, 'files')).catch(() => [] as string[]));
  }

  async write(key: string, source: Readable): Promise<number> {
    const target = path.join(this.location, key);
    const temp = path.join(this.location, '.partial', randomUUID());
    await this.folder(path.dirname(target));
    await this.folder(path.dirname(temp));
    try {
      await pipeline(source, createWriteStream(temp, { mode: 0o600 }));
      const written = await stat(temp);
      await rename(temp, target);
      return written.size;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Removes what killed backups left half-written in `.partial/`, once older than `minAgeMs`. */
  async removeUnfinished(minAgeMs: number, now = Date.now()): Promise<number> {
    const dir = path.join(this.location, '.partial');
    let removed = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (!info || now - info.mtimeMs < minAgeMs) continue;
      await rm(path.join(dir, name), { force: true });
      removed += 1;
    }
    return removed;
  }

  async read(key: string): Promise<Readable> {
    const file = path.join(this.location, key);
    await stat(file);
    return createReadStream(file);
  }

  async remove(key: string): Promise<void> {
    await rm(path.join(this.location, key), { force: true });
  }

  close(): void {
    // Nothing is held between calls.
  }
}

/** Whether `place` and `dataDir` are on one disk: a backup there goes with the disk it protects. */
export async function onSameDisk(place: BackupPlaceConfig, dataDir: string): Promise<boolean> {
  if (place.kind === 's3') return false;
  const device = async (target: string): Promise<number | null> => {
    let current = path.resolve(target);
    while (true) {
      const info = await stat(current).catch(() => null);
      if (info) return info.dev;
      const parent = path.dirname(current);
      if (parent === current) return null;
      current = parent;
    }
  };
  const [a, b] = await Promise.all([device(place.path), device(dataDir)]);
  return a !== null && a === b;
}

/** Reads a whole small stream (a manifest). */
export async function readAll(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
