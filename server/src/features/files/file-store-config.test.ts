import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { createFileStore } from './create-file-store';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'everest-config-'));

describe('FILE_STORE', () => {
  it('keeps files under DATA_DIR when unset', async () => {
    const dir = dataDir();
    const store = await createFileStore(loadConfig({ DATA_DIR: dir }));
    expect(store).toBeInstanceOf(LocalFileStore);
    expect(store.location).toBe(path.join(dir, 'files'));
  });

  it('keeps files in a bucket under a prefix, path-style when an endpoint is given', async () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      FILE_STORE: 's3://everest-files/prod/documents/',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.fileStore).toEqual({
      kind: 's3',
      bucket: 'everest-files',
      prefix: 'prod/documents',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    const store = await createFileStore(config);
    expect(store).toBeInstanceOf(S3FileStore);
    expect(store.location).toBe('s3://everest-files/prod/documents');
    store.close();
  });

  it("leaves AWS's own S3 virtual-hosted and its credentials to the SDK's chain", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), FILE_STORE: 's3://everest-files' });
    expect(config.fileStore).toMatchObject({ kind: 's3', prefix: '', endpoint: undefined, forcePathStyle: false, credentials: undefined });
  });

  it('names the variable when FILE_STORE is not an s3:// address', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), FILE_STORE: '/var/files' })).toThrow(/^The environment variable FILE_STORE \("\/var\/files"\) is invalid: must be s3:\/\/bucket/);
  });

  it('refuses half a pair of S3 credentials', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), FILE_STORE: 's3://bucket', S3_ACCESS_KEY_ID: 'key' })).toThrow(ConfigError);
  });
});
