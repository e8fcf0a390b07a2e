import { useMutation } from '@tanstack/react-query';
import type { BulkUploadPreviewBody } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { mergePreviewAnswers, previewRequests } from '../lib/bulk-plan';

/**
 * POST /api/admin/bulk-upload-preview: what the server knows of the manifest's e-mails and the
 * selected files' hashes, for the browser's dry run. It reads and stores nothing else. A large
 * batch is asked in parts that each fit the server's JSON body limit, one after another.
 */
export async function bulkUploadPreview({ emails, sha256 }: BulkUploadPreviewBody) {
  const answers = [];
  for (const body of previewRequests(emails, sha256)) answers.push(await api.call('bulkUploadPreview', { body }));
  return mergePreviewAnswers(answers);
}

export function useBulkUploadPreview() {
  return useMutation({ mutationFn: bulkUploadPreview });
}
