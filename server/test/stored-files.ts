import { readdir } from 'node:fs/promises';
import type { FileStore } from '../src/features/files/file-store';

/** The hashes of every file the store keeps, sorted: the same question for a folder and a bucket. */
export async function storedFiles(store: FileStore): Promise<string[]> {
  return (await store.list()).map((file) => file.sha256).sort();
}

/** The uploads still being received (or left behind) in this instance's temp folder. */
export async function tempFiles(store: FileStore): Promise<string[]> {
  return (await readdir(store.tempDir).catch(() => [] as string[])).sort();
}

/** Takes a stored file away whatever its age, as a disk fault or an operator would. */
export async function removeStoredFile(store: FileStore, sha256: string): Promise<void> {
  if (!(await store.removeIfUntouched(sha256, 0, Number.POSITIVE_INFINITY))) throw new Error(`the store has no file ${sha256}`);
}
