// The checks of a document file that every publishing path makes as the server does: its
// first bytes against its extension, its size, whether it is finished, and the title its name
// gives a property document.

import { startsWith } from './bytes';
import { documentExtensionOf, maxDocumentBytes } from './document-files';
import { fieldMax } from './limits';
import { documentContainers, publishingMessages, type DocumentContainer } from './publishing-messages';

/**
 * The first bytes a dry run reads of each file to check its type, as the server does: what the
 * `file-type` package needs to name a type, more than any container's signature.
 */
export const documentHeadBytes = 4100;

/**
 * The container a document's first bytes announce: '%PDF-' for a PDF, the OLE2 signature for
 * .doc and .xls, a zip's local header for .docx and .xlsx; null for anything else. The server
 * then opens the container to tell a Word document from a workbook; a dry run has only the head.
 */
export function documentContainerOf(head: Uint8Array): DocumentContainer | null {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  return null;
}

/**
 * Why the portal would refuse this file, checked as the server checks it: name ends in an
 * accepted extension, not empty, at most 10 MB, and its first bytes are what its extension
 * promises (PDF '%PDF-', OLE for .doc/.xls, zip for .docx/.xlsx). `head` omitted: name and size
 * only. null = accepted.
 */
export function documentRefusal(file: { name: string; size: number; head?: Uint8Array }): string | null {
  const extension = documentExtensionOf(file.name);
  if (!extension) return publishingMessages.wrongType;
  if (file.size === 0) return publishingMessages.empty;
  if (file.size > maxDocumentBytes) return publishingMessages.tooLarge;
  if (file.head && documentContainerOf(file.head) !== documentContainers[extension]) {
    return publishingMessages.contentNotAsNamed(extension);
  }
  return null;
}

/**
 * The last bytes a sync reads of each file to tell a finished document from one still being
 * written: a PDF ends with its '%%EOF' mark, which readers look for in the last 1024 bytes.
 */
export const documentTailBytes = 1024;

const pdfEndMark = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF

function contains(bytes: Uint8Array, mark: readonly number[]): boolean {
  outer: for (let i = 0; i + mark.length <= bytes.length; i += 1) {
    for (let j = 0; j < mark.length; j += 1) if (bytes[i + j] !== mark[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Why a document whose first bytes are right is not finished yet (a scanner or a copy still writing it,
 * which a watched folder must not publish half of), or null: a PDF
 * must end with its trailer ('%%EOF' within its last documentTailBytes), a zip (.docx, .xlsx)
 * with its end-of-central-directory record, an OLE file (.doc, .xls) fill whole 512-byte
 * sectors. A scanner writing page by page leaves a file that fails this between pages.
 */
export function documentIncompleteness(container: DocumentContainer, file: { size: number; tail: Uint8Array }): string | null {
  switch (container) {
    case 'pdf':
      return contains(file.tail, pdfEndMark) ? null : publishingMessages.incomplete.pdf;
    case 'zip':
      return contains(file.tail, [0x50, 0x4b, 0x05, 0x06]) ? null : publishingMessages.incomplete.zip;
    case 'ole':
      return file.size % 512 === 0 ? null : publishingMessages.incomplete.ole;
  }
}

function baseName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return slash === -1 ? name : name.slice(slash + 1);
}

/**
 * The title a property document gets from its file name: the name in NFC without its last
 * extension, trimmed. It fits when 1 to fieldMax.title characters long (see titleRefusal).
 */
export function titleFromFilename(filename: string): string {
  const name = baseName(filename).normalize('NFC');
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).trim();
}

/** Why a property document could not be titled by this file name, or null when it can. */
export function filenameTitleRefusal(filename: string): string | null {
  const title = titleFromFilename(filename);
  if (title === '') return publishingMessages.fileNameNoTitle;
  if (title.length > fieldMax.title) return publishingMessages.fileNameTitleTooLong;
  return null;
}
