import path from 'node:path';
import type { Config } from '../../config';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

/** The configured store: the folder under DATA_DIR, or the bucket of FILE_STORE. */
export function createFileStore(config: Pick<Config, 'fileStore' | 'dataDir'>): FileStore {
  const store = config.fileStore;
  if (store.kind === 'local') return new LocalFileStore(store.root);
  // Uploads are checked on this machine before they go to the bucket.
  return new S3FileStore({ ...store, tempDir: path.join(config.dataDir, 'uploads') });
}
