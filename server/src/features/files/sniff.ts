import { acceptedImageMimeTypes, documentContainerOf, type DocumentContainer } from '@everest/core/domain';

/** The file types the product accepts, recognised by their first bytes, never by name. */
export type SniffedType =
  | 'application/pdf'
  | 'application/msword' // OLE2 container: .doc and .xls
  | 'application/zip' // OOXML container: .docx and .xlsx
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif' // only the photos' web-sized copies, which are made here
  | 'image/svg+xml';

export const documentTypes: readonly SniffedType[] = ['application/pdf', 'application/msword', 'application/zip'];
export const imageTypes: readonly SniffedType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'];
/**
 * What an administrator may upload as a property photo: raster images that are re-encoded into
 * web-sized copies. Not SVG: it cannot be re-encoded without rasterising someone's markup, and a
 * photo of a building is never one.
 */
export const photoTypes: readonly SniffedType[] = acceptedImageMimeTypes;

const startsWith = (head: Buffer, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

/** The documents' containers by core's rule, which the browser's and the desktop's dry runs share. */
const documentContainerTypes: Record<DocumentContainer, SniffedType> = {
  pdf: 'application/pdf',
  ole: 'application/msword',
  zip: 'application/zip',
};

export function sniffContentType(head: Buffer): SniffedType | null {
  const container = documentContainerOf(head);
  if (container) return documentContainerTypes[container];
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  // An ISO media file whose brand is AVIF: 'ftypavif' after the box's size.
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66], 4)) return 'image/avif';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return null;
}

/** The type to answer a download with: OOXML and OLE files by their extension. */
export function contentTypeForDownload(stored: string, filename: string): string {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (stored === 'application/zip') {
    if (ext === 'docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    if (ext === 'xlsx') return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
  if (stored === 'application/msword' && ext === 'xls') return 'application/vnd.ms-excel';
  return stored;
}
