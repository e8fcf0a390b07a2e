// Document and image files: the largest accepted, their extensions and MIME types, the `accept`
// attributes of the file inputs, and the group a document of no property is filed under.

import { megabyte } from './limits';

/** Documents that belong to no property are grouped and filed under this name. */
export const defaultPropertyGroup = 'General';

export const maxDocumentBytes = 10 * megabyte;
export const maxImageBytes = 10 * megabyte;

export const acceptedDocumentExtensions = ['.pdf', '.doc', '.docx', '.xls', '.xlsx'] as const;
export type DocumentExtension = (typeof acceptedDocumentExtensions)[number];
export const documentMimeTypes: Record<DocumentExtension, string> = {
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export const acceptedDocumentMimeTypes: readonly string[] = Object.values(documentMimeTypes);
/** The `accept` attribute of a document file input. */
export const documentAccept = acceptedDocumentExtensions.join(',');

/** The accepted extension a file name ends in (any case), or null. */
export function documentExtensionOf(filename: string): DocumentExtension | null {
  const lower = filename.toLowerCase();
  return acceptedDocumentExtensions.find((extension) => lower.endsWith(extension)) ?? null;
}

/** True when the file name ends in one of the accepted document extensions (any case). */
export function isAcceptedDocumentName(filename: string): boolean {
  return documentExtensionOf(filename) !== null;
}

export const acceptedImageMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const imageAccept = 'image/*';
