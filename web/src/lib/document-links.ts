import { api } from './api';

/** A document as the lists name it: its id and whether it is a property or a personal one. */
export interface DocumentRef {
  id: number;
  documentType: 'property' | 'personal';
  /** Read through a share from this investor (their user id), not as one's own. */
  onBehalfOf?: number;
}

/** One version of a document (a corrected document's earlier files), downloaded by its own address. */
export interface VersionRef {
  versionId: number;
}

/**
 * The file's address for the preview frame or a new window, which cannot send a header. It
 * carries a document link: a token of a few minutes that opens this one document (or
 * version), asked for just now, never the session token, which would then sit in the browser's
 * history and open every call for hours.
 */
export async function documentAddress(document: DocumentRef | VersionRef, purpose: 'preview' | 'download'): Promise<string> {
  const preview = purpose === 'preview' ? '1' : undefined;
  if ('versionId' in document) {
    const link = await api.call('documentLink', { body: { id: document.versionId, type: 'version' } });
    return api.urlFor('downloadVersion', { params: { versionId: document.versionId }, query: { token: link.token, preview } });
  }
  const type = document.documentType === 'personal' ? 'user' : 'property';
  const { onBehalfOf } = document;
  const link = await api.call('documentLink', { body: { id: document.id, type, onBehalfOf } });
  return api.urlFor('download', {
    params: { id: document.id },
    query: { token: link.token, type: type === 'user' ? 'user' : undefined, preview, onBehalfOf },
  });
}

/**
 * Opens the document in a new window, where it downloads as an attachment. The window opens in
 * the click itself, since one opened after a network call may be blocked as a popup, and goes
 * to the address once it is known. Where no window can be held (the desktop app opens none and
 * downloads what is asked of window.open instead), the address is handed to window.open then.
 */
export async function openDocumentWindow(document: DocumentRef | VersionRef): Promise<void> {
  const opened = window.open('', '_blank');
  try {
    const address = await documentAddress(document, 'download');
    if (opened) {
      opened.opener = null;
      opened.location.replace(address);
    } else {
      window.open(address, '_blank', 'noopener');
    }
  } catch (error) {
    opened?.close();
    throw error;
  }
}
