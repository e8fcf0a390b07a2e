import type { PropertyDocument } from '@everest/core/contract';
import {
  acceptedDocumentExtensions,
  isAcceptedDocumentName,
  maxDocumentBytes,
  portalMessages,
  quarterOrder,
} from '@everest/core/domain';
import { adminNotices } from './admin-messages';

export interface FileProblem {
  title: string;
  description: string;
}

/**
 * A document file is checked when chosen, before anything is sent: a 40 MB scan would otherwise
 * travel the whole way only to be refused (413) by the server, which checks again.
 */
export function checkDocumentFile(file: File): FileProblem | null {
  if (!isAcceptedDocumentName(file.name)) {
    return {
      title: portalMessages.invalidFileType,
      description: `${file.name} is not one of ${acceptedDocumentExtensions.map((e) => e.slice(1).toUpperCase()).join(', ')}.`,
    };
  }
  if (file.size > maxDocumentBytes) {
    return {
      title: adminNotices.fileTooLarge,
      description: `${file.name} is larger than ${maxDocumentBytes / (1024 * 1024)} MB.`,
    };
  }
  return null;
}

const quarterRank = (q: string) => quarterOrder.indexOf(q as (typeof quarterOrder)[number]);

/**
 * Spec: year descending, then quarter descending, then title; then property, so that a quarter's
 * reports of the same title keep one order from load to load.
 */
export function sortDocuments(documents: readonly PropertyDocument[]): PropertyDocument[] {
  return [...documents].sort(
    (a, b) =>
      b.year - a.year ||
      quarterRank(a.quarter) - quarterRank(b.quarter) ||
      a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) ||
      a.property.localeCompare(b.property, 'en', { sensitivity: 'base' }),
  );
}

/** The list's search: every word must appear in the title, property, file name, year or quarter. */
export function matchesDocument(document: PropertyDocument, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [document.title, document.property, document.filename, String(document.year), document.quarter]
    .join(' ')
    .toLowerCase();
  return words.every((w) => text.includes(w));
}
