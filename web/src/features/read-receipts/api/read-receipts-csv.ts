import type { ReceiptDocumentType } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';

export type ReceiptCsvSource = { documentType: ReceiptDocumentType; id: number } | { userId: number };

/**
 * Downloads a read-receipt CSV. The session travels in a header (only the download route takes
 * `?token=`), so the file is fetched and handed to the browser as a blob.
 */
export async function downloadReceiptCsv(source: ReceiptCsvSource): Promise<void> {
  const url =
    'userId' in source
      ? api.urlFor('readReceiptInvestorCsv', { params: { userId: source.userId } })
      : api.urlFor('readReceiptDocumentCsv', { params: { documentType: source.documentType, id: source.id } });
  const token = getStoredToken();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  if (!res.ok) {
    const answer = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new Error(answer?.error ?? 'The CSV file could not be made.');
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'read-receipts.csv';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}
