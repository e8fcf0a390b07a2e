import { defineConfig } from 'vitest/config';

/**
 * The file-handling tests again, with every test server's files in an S3-compatible bucket
 * (s3rver, started by test/s3-global-setup.ts) instead of a folder: uploads, downloads with
 * ranges, replaced and deleted documents, photos and their variants.
 */
export default defineConfig({
  test: {
    name: 'server-s3',
    include: [
      'src/features/document-access/documents.test.ts',
      'src/features/property-documents/admin-documents.test.ts',
      'src/features/personal-documents/admin-personal-documents.test.ts',
      'src/features/personal-documents/bulk-personal-documents.test.ts',
      'src/features/properties/admin-properties.test.ts',
      'src/features/backups/backup-restore.test.ts',
    ],
    globalSetup: ['test/global-setup.ts', 'test/s3-global-setup.ts'],
    // As the server's project (vitest.config.ts): one module graph per worker.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
