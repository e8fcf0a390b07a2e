import {
  contentReviewMessages,
  investorIdentifiers,
  isIgnoredPath,
  reviewManifest,
  reviewRows,
  type ReviewInvestor,
  type ReviewRow,
} from '@everest/core/domain';
import type { ContentMatchingInvestorsAnswer } from '@everest/core/contract';
import { manifestFileName } from './bulk-batch';
import { limitsFor, readPdfs, splitPdfFile } from './pdf-reading';
import type { FolderFile } from './bulk-selection';

// "Match by content" in the bulk upload: the K-1 PDFs chosen (an investors/ folder without a
// manifest, or one combined PDF) are read in workers, core's rule names each one's investor, staff
// review the rows, and what they confirm becomes a manifest and its files: from there the batch
// takes the path every manifest takes (the dry run, the preview, Confirm).

export const matchByContentMessages = {
  notPdf: 'Not a PDF: Match by content reads PDFs only',
} as const;

export type MatchingInvestor = ContentMatchingInvestorsAnswer['investors'][number];

/** What staff review: the rows, whom they may pick, and the chosen PDFs by each row's source. */
export interface ContentReview {
  rows: ReviewRow[];
  investors: readonly MatchingInvestor[];
  investorsById: ReadonlyMap<number, ReviewInvestor>;
  pdfs: ReadonlyMap<string, File>;
  /** Chosen files that are not PDFs, with why they are left out. */
  leftOut: { path: string; reason: string }[];
}

const isPdfName = (name: string) => name.toLowerCase().endsWith('.pdf');

/**
 * The files Match by content reads from what was chosen: a folder's investors/ folder when it has
 * one (a quarter folder), or all of it; system and editor files are left out without a word.
 */
export function contentFiles(chosen: readonly FolderFile[]): FolderFile[] {
  const kept = chosen.filter(({ path }) => !isIgnoredPath(path));
  const investorsFolder = kept.filter(({ path }) => /(^|\/)investors\//i.test(path));
  return (investorsFolder.length > 0 ? investorsFolder : kept).filter(({ file }) => file.name.toLowerCase() !== manifestFileName);
}

/** Reads the chosen PDFs and applies core's rule to each: the rows staff review. */
export async function matchByContent(
  chosen: readonly FolderFile[],
  investors: readonly MatchingInvestor[],
  onProgress?: (fraction: number) => void,
): Promise<ContentReview | { error: string }> {
  const files = contentFiles(chosen);
  // In path order, as a file manager lists the folder (K1_2025_00009 before K1_2025_00010).
  const pdfFiles = files.filter(({ file }) => isPdfName(file.name)).sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  if (pdfFiles.length === 0) return { error: contentReviewMessages.noPdf };
  // A row's source is the file's name, as the manifest names it; twins by name keep their paths.
  const names = new Map<string, number>();
  for (const { file } of pdfFiles) names.set(file.name.normalize('NFC'), (names.get(file.name.normalize('NFC')) ?? 0) + 1);
  const sourceOf = ({ file, path }: FolderFile) => (names.get(file.name.normalize('NFC'))! > 1 ? path : file.name.normalize('NFC'));

  const index = investorIdentifiers(investors);
  const texts = await readPdfs(
    pdfFiles.map(({ file }) => ({ file, limits: limitsFor(file, pdfFiles.length) })),
    onProgress,
  );
  const rows = pdfFiles.flatMap((file, i) => reviewRows(sourceOf(file), texts[i]!, index));
  return {
    rows,
    investors,
    investorsById: new Map(investors.map((investor) => [investor.id, investor])),
    pdfs: new Map(pdfFiles.map((file) => [sourceOf(file), file.file])),
    leftOut: files.filter(({ file }) => !isPdfName(file.name)).map(({ path }) => ({ path, reason: matchByContentMessages.notPdf })),
  };
}

/**
 * What staff confirmed, as a manifest and the documents it names: whole files as chosen (under
 * the name the manifest gives them), and each section of a combined PDF cut into its own PDF.
 */
export async function confirmedBatch(review: ContentReview): Promise<{ manifest: File; documents: File[] }> {
  const { csvText, files } = reviewManifest(review.rows, review.investorsById);
  const documents: File[] = [];
  const sectionsBySource = new Map<string, { pages: number[]; fileName: string }[]>();
  for (const { row, fileName } of files) {
    const pdf = review.pdfs.get(row.source)!;
    if (row.pages === null) documents.push(fileName === pdf.name ? pdf : new File([pdf], fileName, { type: 'application/pdf' }));
    else sectionsBySource.set(row.source, [...(sectionsBySource.get(row.source) ?? []), { pages: row.pages, fileName }]);
  }
  for (const [source, sections] of sectionsBySource) {
    const parts = await splitPdfFile(review.pdfs.get(source)!, sections.map((section) => section.pages));
    parts.forEach((bytes, i) => documents.push(new File([bytes as BlobPart], sections[i]!.fileName, { type: 'application/pdf' })));
  }
  return { manifest: new File([csvText], manifestFileName, { type: 'text/csv' }), documents };
}
