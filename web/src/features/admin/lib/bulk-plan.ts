// The bulk upload's dry run as the preview shows it: pure, no DOM, so that the benchmark
// (bench/bulk-dry-run.ts) runs the very code the browser runs.
import type { BulkUploadPreviewAnswer } from '@everest/core/contract';
import { parseManifest, planBulkManifest, type BulkManifestPlan, type ManifestFile, type ManifestOutcome } from '@everest/core/domain';

/** A selected file the browser will not send, and why (the server would refuse it too). */
export interface RefusedFile {
  name: string;
  reason: string;
}

/** The dry run: planBulkManifest fed with what bulk-upload-preview answered (as the server plans). */
export function planBatch(csvText: string, files: readonly ManifestFile[], known: BulkUploadPreviewAnswer): BulkManifestPlan {
  return planBulkManifest({
    csvText,
    files,
    usersByEmail: new Map(known.users.map((u) => [u.email.toLowerCase(), u.userId])),
    publishedHashes: new Map(known.users.map((u) => [u.userId, new Set(u.publishedSha256)])),
    publishedTitles: new Map(known.users.map((u) => [u.userId, new Set(u.titles)])),
  });
}

/** The preview's words for each outcome, in the order the counts are shown. */
export const outcomeLabels: Record<ManifestOutcome, string> = {
  publish: 'Will be published',
  'already-published': 'Already published',
  'title-used': 'Title already used',
  'user-not-found': 'User not found',
  'missing-fields': 'Missing fields',
  'file-missing': 'File missing',
  'bad-category': 'Invalid category',
  'bad-field': 'Invalid field',
  'duplicate-row': 'Listed twice',
};

export const outcomeOrder = Object.keys(outcomeLabels) as ManifestOutcome[];

/** Per outcome that occurs, its label and count, in `outcomeOrder`. */
export function outcomeCounts(plan: BulkManifestPlan): { outcome: ManifestOutcome; label: string; count: number }[] {
  return outcomeOrder
    .filter((outcome) => plan.counts[outcome] > 0)
    .map((outcome) => ({ outcome, label: outcomeLabels[outcome], count: plan.counts[outcome] }));
}

/**
 * A row's sentence: its error, or for a file the browser refused before sending, why (the row is
 * then 'file missing' for the server, which never receives the file).
 */
export function rowMessage(row: BulkManifestPlan['rows'][number], refused: readonly RefusedFile[]): string {
  if (row.outcome === 'publish') return '';
  if (row.outcome === 'file-missing') {
    const reason = refused.find((file) => file.name.toLowerCase() === row.filename.toLowerCase())?.reason;
    if (reason) return `${reason} It will not be sent.`;
  }
  return row.error;
}

/**
 * The e-mail and title each manifest row wrote, by row number, for the preview of rows the plan
 * refuses (the plan keeps them only for rows it would publish), read by the plan's own parser.
 */
export function manifestCells(csvText: string): Map<number, { email: string; title: string }> {
  return new Map(
    parseManifest(csvText).map((record, index) => [index + 2, { email: (record.email ?? '').trim(), title: (record.title ?? '').trim() }]),
  );
}
