import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  /** The S3 endpoint, e.g. http://127.0.0.1:41234 */
  endpoint: string;
  bucket: string;
  /** The environment that points a server at this bucket, under a prefix of its own. */
  env: (prefix: string) => Record<string, string>;
  close: () => Promise<void>;
}

/**
 * A real S3-compatible server in this process (s3rver, which keeps objects in a temp folder), on
 * an ephemeral port, with one bucket. The AWS SDK speaks to it as to any S3 service, path-style.
 */
export async function startLocalS3(bucket = 'everest-test'): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'everest-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix) => ({
      FILE_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      // s3rver's fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
