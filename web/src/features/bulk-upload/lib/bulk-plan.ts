// The bulk upload's dry run as the preview shows it: pure, no DOM, so that the benchmark
// (bench/bulk-dry-run.ts) runs the very code the browser runs.
import type { BulkUploadPreviewAnswer } from '@everest/core/contract';
import {
  bulkManifestMessages,
  manifestKnowledgeOf,
  parseManifest,
  planBulkManifest,
  type BulkManifestPlan,
  type CsvEncoding,
  type ManifestFile,
  type ManifestOutcome,
  type Period,
} from '@everest/core/domain';

/** A selected file the browser will not send, and why (the server would refuse it too). */
export interface RefusedFile {
  name: string;
  reason: string;
}

/**
 * The dry run: planBulkManifest fed with what bulk-upload-preview answered (as the server plans),
 * with the encoding the manifest was read in and the batch's period.
 */
export function planBatch(
  csvText: string,
  files: readonly ManifestFile[],
  known: BulkUploadPreviewAnswer,
  options: { encoding?: CsvEncoding; period?: Period | null; now?: Date } = {},
): BulkManifestPlan {
  return planBulkManifest({
    csvText,
    ...(options.encoding ? { encoding: options.encoding } : {}),
    ...(options.period ? { period: options.period } : {}),
    ...(options.now ? { now: options.now } : {}),
    files,
    ...manifestKnowledgeOf(known.users),
  });
}

/** The preview's words for each outcome, in the order the counts are shown. */
export const outcomeLabels: Record<ManifestOutcome, string> = {
  publish: 'Will be published',
  'already-published': 'Already published',
  'title-used': 'Title already used',
  'user-not-found': 'User not found',
  'user-deactivated': 'Account deactivated',
  'missing-fields': 'Missing fields',
  'file-missing': 'File missing',
  'file-refused': 'File refused',
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
  // A document the investor already has (same title, category and period) gets its corrected version.
  if (row.outcome === 'publish') return row.corrects ? bulkManifestMessages.corrects(row.corrects) : '';
  // The file's own reason (type by content, size), not 'File not found'.
  if (row.outcome === 'file-refused') return `${row.error} It will not be sent.`;
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

/**
 * The server takes JSON bodies of at most 100 kB, about 1,400 hashes: a quarter's batch of 2,000
 * files must ask in parts. The e-mails and the hashes are cut into parts of at most `maxBytes` of
 * JSON each, and every e-mail part is asked with every hash part, so that no (investor, content)
 * pair goes unasked. Usually that is one request.
 */
export function previewRequests(
  emails: readonly string[],
  sha256: readonly string[],
  maxBytes = 45_000,
): { emails: string[]; sha256: string[] }[] {
  const parts = (values: readonly string[]): string[][] => {
    const out: string[][] = [];
    let current: string[] = [];
    let size = 0;
    for (const value of values) {
      const cost = JSON.stringify(value).length + 1;
      if (current.length > 0 && size + cost > maxBytes) {
        out.push(current);
        current = [];
        size = 0;
      }
      current.push(value);
      size += cost;
    }
    if (current.length > 0 || out.length === 0) out.push(current);
    return out;
  };
  const hashParts = parts(sha256);
  return parts(emails).flatMap((emailPart) => hashParts.map((hashPart) => ({ emails: emailPart, sha256: hashPart })));
}

/**
 * The answers of the parts as one: per investor, every hash they already have. Their documents
 * and state do not depend on the hashes asked, so every part answers the same ones.
 */
export function mergePreviewAnswers(answers: readonly BulkUploadPreviewAnswer[]): BulkUploadPreviewAnswer {
  const users = new Map<string, { user: BulkUploadPreviewAnswer['users'][number]; publishedSha256: Set<string> }>();
  for (const answer of answers) {
    for (const user of answer.users) {
      const key = user.email.toLowerCase();
      const merged = users.get(key) ?? { user, publishedSha256: new Set<string>() };
      for (const hash of user.publishedSha256) merged.publishedSha256.add(hash);
      users.set(key, merged);
    }
  }
  return { users: [...users.values()].map(({ user, publishedSha256 }) => ({ ...user, publishedSha256: [...publishedSha256] })) };
}
