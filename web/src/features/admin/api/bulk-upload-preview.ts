import { useMutation } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';

/**
 * POST /api/admin/bulk-upload-preview: what the server knows of the manifest's e-mails and the
 * selected files' hashes, for the browser's dry run. It reads and stores nothing else.
 */
export function bulkUploadPreview(body: CallInput<'bulkUploadPreview'>['body']) {
  return api.call('bulkUploadPreview', { body });
}

export function useBulkUploadPreview() {
  return useMutation({ mutationFn: bulkUploadPreview });
}
