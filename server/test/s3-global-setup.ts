import type { TestProject } from 'vitest/node';
import type {} from './global-setup';
import { startLocalS3 } from './s3';

/** One S3-compatible server for the run of the server-s3 project (see vitest.s3.config.ts). */
export default async function setup(project: TestProject) {
  const s3 = await startLocalS3();
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('s3Bucket', s3.bucket);
  return () => s3.close();
}
