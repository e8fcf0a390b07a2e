import type { PersonalDocument } from '@everest/core/contract';
import { openDocumentWindow } from '../../../lib/document-links';

/**
 * GET /api/investor/download/:id?type=user in a new window, as the portal opens it: with a
 * document link of a few minutes, never the session token, in the address.
 */
export function openPersonalDocument(document: Pick<PersonalDocument, 'id'>): Promise<void> {
  return openDocumentWindow({ id: document.id, documentType: 'personal' });
}
