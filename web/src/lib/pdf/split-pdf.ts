// A combined PDF cut into one PDF per section, with pdf-lib's copyPages. pdf-lib writes each
// section anew: a signature on the combined file does not survive (no K-1 copy carries one), and
// an encrypted file cannot be cut at all, which splitPdf says in a sentence.

import { EncryptedPDFError, PDFDocument } from 'pdf-lib';

export const splitMessages = {
  encrypted: 'This PDF is encrypted, so it cannot be cut into one PDF per investor: ask the preparer for a copy without encryption',
  damaged: 'This PDF is damaged, so it cannot be cut into one PDF per investor',
} as const;

export class SplitRefused extends Error {}

/**
 * One PDF per section, in the order given; `sections` hold 1-based page numbers. The pages keep
 * their content and size; the document's own metadata is not copied (the title of a combined
 * file is every partner's).
 */
export async function splitPdf(bytes: Uint8Array, sections: readonly (readonly number[])[]): Promise<Uint8Array[]> {
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    throw new SplitRefused(error instanceof EncryptedPDFError ? splitMessages.encrypted : splitMessages.damaged);
  }
  const count = source.getPageCount();
  const parts: Uint8Array[] = [];
  for (const pages of sections) {
    if (pages.length === 0 || pages.some((page) => !Number.isInteger(page) || page < 1 || page > count)) {
      throw new RangeError(`A section names a page outside 1–${count}: ${pages.join(', ')}`);
    }
    const part = await PDFDocument.create({ updateMetadata: false });
    for (const page of await part.copyPages(source, pages.map((page) => page - 1))) part.addPage(page);
    parts.push(await part.save());
  }
  return parts;
}
