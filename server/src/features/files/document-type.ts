import { readFile } from 'node:fs/promises';
import CFB, { type CFB$Container } from 'cfb';
import { fileTypeFromFile } from 'file-type';
import { documentMimeTypes, maxDocumentBytes, publishingMessages, type DocumentExtension } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { UploadedFile, UploadRule } from '../../http/multipart';
import type { FileStore } from './file-store';
import { documentTypes } from './sniff';

export const documentFileMessages = {
  // The dry runs' sentence (core), so that the preview and the server's refusal say the same.
  tooLarge: publishingMessages.tooLarge,
  wrongType: 'Invalid File Type: please upload a PDF, Word (.doc, .docx) or Excel (.xls, .xlsx) file.',
  noFile: 'Please choose a file to upload.',
  noName: 'The file has no name. Please give it a name that ends in its type (.pdf, .docx…) and upload it again.',
  nameTooLong: 'The file name must be 255 characters or fewer. Please rename the file and upload it again.',
} as const;

/**
 * How a document upload takes its file (the form field `document`): under 10 MB counted while it
 * streams, and a PDF, OLE or zip container by its first bytes. The container is then opened by
 * `identifyDocument`, since a zip or an OLE file alone says nothing about what is inside.
 */
export function documentUpload(store: FileStore): UploadRule {
  return {
    field: 'document',
    store,
    maxBytes: maxDocumentBytes,
    accept: documentTypes,
    tooLargeMessage: documentFileMessages.tooLarge,
    wrongTypeMessage: documentFileMessages.wrongType,
  };
}

const kindLabels: Record<DocumentExtension, string> = {
  '.pdf': 'PDF document',
  '.doc': 'Word document (.doc)',
  '.docx': 'Word document (.docx)',
  '.xls': 'Excel workbook (.xls)',
  '.xlsx': 'Excel workbook (.xlsx)',
};

/** What the content is, read from the file itself, or null for anything else. */
async function kindOfContent(file: UploadedFile): Promise<DocumentExtension | null> {
  if (file.contentType === 'application/pdf') return '.pdf';
  if (file.contentType === 'application/zip') {
    // file-type reads the zip's [Content_Types].xml and entries: a Word document or a workbook,
    // not any zip (nor a macro-enabled .docm/.xlsm, which it names apart).
    const detected = await fileTypeFromFile(file.path);
    if (detected?.ext === 'docx') return '.docx';
    if (detected?.ext === 'xlsx') return '.xlsx';
    return null;
  }
  if (file.contentType === 'application/msword') {
    // An OLE container holds a Word document in a 'WordDocument' stream and a workbook in
    // 'Workbook' (Excel 97 and later) or 'Book' (Excel 5). Read whole: it is 10 MB at most.
    let container: CFB$Container;
    try {
      container = CFB.read(await readFile(file.path), { type: 'buffer' });
    } catch {
      return null;
    }
    const has = (name: string) => container.FullPaths.some((p) => p.toLowerCase() === `root entry/${name.toLowerCase()}`);
    if (has('WordDocument')) return '.doc';
    if (has('Workbook') || has('Book')) return '.xls';
    return null;
  }
  return null;
}

export interface DocumentFile {
  filename: string;
  /** The precise type, for the stored file and the download's Content-Type. */
  contentType: string;
}

/**
 * The upload's type by its content, which its name must agree with: a zip renamed .docx, a
 * workbook named .pdf or a script named .pdf is refused (415) before anything is kept, so what
 * an investor downloads opens in the program its name promises.
 */
export async function identifyDocument(file: UploadedFile): Promise<DocumentFile> {
  const kind = await kindOfContent(file);
  if (!kind) throw new HttpError(415, documentFileMessages.wrongType);
  const dot = file.filename.lastIndexOf('.');
  const extension = dot >= 0 ? file.filename.slice(dot).toLowerCase() : '';
  if (extension !== kind) {
    throw new HttpError(
      415,
      `Invalid File Type: "${file.filename}" is a ${kindLabels[kind]}, but its name ends in "${extension || 'nothing'}". Please check the file and upload it again.`,
    );
  }
  return { filename: file.filename, contentType: documentMimeTypes[kind] };
}
