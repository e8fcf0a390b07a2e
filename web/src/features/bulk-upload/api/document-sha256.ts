import { ApiError } from '@everest/core/client';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';
import { sha256Hex } from '../lib/bulk-batch';

/**
 * The SHA-256 of a published property document's file, read through the download route with the
 * session in a header (as the desktop's Folder Drop reads it). The bulk preview asks it only of
 * documents of the same property and size as a file about to be published, to say 'Already
 * published' before Confirm rather than after.
 */
export async function documentSha256(documentId: number): Promise<string> {
  const token = getStoredToken();
  const response = await fetch(api.urlFor('download', { params: { id: documentId } }), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
    cache: 'no-store',
  });
  if (!response.ok) throw new ApiError(response.status, `The file of document ${documentId} could not be read (${response.status}).`);
  return sha256Hex(await response.arrayBuffer());
}
