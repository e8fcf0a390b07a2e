import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReceiptDocumentType } from '@everest/core/contract';
import { pageSize } from '@everest/core/domain';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export interface ReceiptDocumentsQuery {
  page: number;
  search: string;
  notOpened: boolean;
}

/** GET /api/admin/read-receipts/documents: a page of every document with its counts. */
export const receiptDocumentsQueryOptions = ({ page, search, notOpened }: ReceiptDocumentsQuery) =>
  queryOptions({
    queryKey: [...adminKeys.readReceipts, 'documents', page, search.trim(), notOpened],
    queryFn: ({ signal }) =>
      api.call(
        'readReceiptDocuments',
        { query: { page, limit: pageSize, search: search.trim() === '' ? undefined : search.trim(), notOpened } },
        { signal, cache: 'no-store' },
      ),
  });

// decided: unlike the panel's other lists, a read-receipt view is fetched again whenever it opens:
// investors open documents while the administrator looks, and nothing the panel does tells it.
const freshOnOpen = { placeholderData: keepPreviousData, refetchOnMount: 'always' } as const;

export function useReceiptDocuments(query: ReceiptDocumentsQuery) {
  return useQuery({ ...receiptDocumentsQueryOptions(query), ...freshOnOpen });
}

export interface ReceiptDocumentKey {
  documentType: ReceiptDocumentType;
  id: number;
}

/** GET /api/admin/read-receipts/documents/:documentType/:id: a page of its entitled investors. */
export function useReceiptDocument(document: ReceiptDocumentKey, page: number, notOpened: boolean) {
  return useQuery({
    queryKey: [...adminKeys.readReceipts, 'document', document.documentType, document.id, page, notOpened],
    queryFn: ({ signal }) =>
      api.call(
        'readReceiptDocument',
        { params: { documentType: document.documentType, id: document.id }, query: { page, limit: pageSize, notOpened } },
        { signal, cache: 'no-store' },
      ),
    ...freshOnOpen,
  });
}

/** GET /api/admin/read-receipts/investors/:userId: a page of the documents they may read. */
export function useReceiptInvestor(userId: number, page: number, notOpened: boolean) {
  return useQuery({
    queryKey: [...adminKeys.readReceipts, 'investor', userId, page, notOpened],
    queryFn: ({ signal }) =>
      api.call('readReceiptInvestor', { params: { userId }, query: { page, limit: pageSize, notOpened } }, { signal, cache: 'no-store' }),
    ...freshOnOpen,
  });
}
