import type { NotifyDocumentsBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

/**
 * POST /api/admin/notify-documents: one digest per reader for documents published with
 * `notifyLater` (a quarter folder's property and personal documents together). A
 * document is announced once: a retried call sends nothing twice.
 */
export function notifyDocuments(body: NotifyDocumentsBody) {
  return api.call('notifyDocuments', { body });
}
