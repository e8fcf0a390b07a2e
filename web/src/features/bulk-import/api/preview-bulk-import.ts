import { useMutation } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';

export type PreviewBulkImportInput = CallInput<'previewBulkImport'>['body'];

/** POST /api/admin/preview-bulk-import: what an import of these rows would do, changing nothing. */
export function previewBulkImport(body: PreviewBulkImportInput, signal?: AbortSignal) {
  return api.call('previewBulkImport', { body }, { signal });
}

// A mutation, not a query: it answers for one set of rows at one moment, and is asked again
// for every preview rather than cached.
export function usePreviewBulkImport() {
  return useMutation({ mutationFn: (body: PreviewBulkImportInput) => previewBulkImport(body) });
}
