import type { TestProject } from 'vitest/node';
import { startLocalS3 } from './s3';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the server-s3 project: every test server keeps its files in this S3 server's bucket. */
    s3Endpoint?: string;
    s3Bucket?: string;
  }
}

/** One S3-compatible server for the run of the server-s3 project (see vitest.s3.config.ts). */
export default async function setup(project: TestProject) {
  const s3 = await startLocalS3();
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('s3Bucket', s3.bucket);
  return () => s3.close();
}
