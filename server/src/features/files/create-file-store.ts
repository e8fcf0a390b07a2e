import path from 'node:path';
import type { Config } from '../../config';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-file-store';

/**
 * The configured store: the folder under DATA_DIR, or the bucket of FILE_STORE. The S3 store is
 * loaded only for a bucket: the AWS SDK takes 130 ms to load, paid by every start (and every
 * test file) that keeps its files on disk.
 */
export async function createFileStore(config: Pick<Config, 'fileStore' | 'dataDir'>): Promise<FileStore> {
  const store = config.fileStore;
  if (store.kind === 'local') return new LocalFileStore(store.root);
  const { S3FileStore } = await import('./s3-file-store');
  // Uploads are checked on this machine before they go to the bucket.
  return new S3FileStore({ ...store, tempDir: path.join(config.dataDir, 'uploads') });
}
