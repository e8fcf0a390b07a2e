// The bulk upload's dry run as the preview shows it: pure, no DOM, so that the benchmark
// (bench/bulk-dry-run.ts) runs the very code the browser runs.
import type { BulkUploadPreviewAnswer } from '@everest/core/contract';
import {
  bulkManifestMessages,
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
 * with the encoding the manifest was read in and the batch's period (issue 32 case 4).
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
  // Issue 21: a title the investor already has publishes that document's corrected version.
  if (row.outcome === 'publish') return row.corrects ? bulkManifestMessages.corrects(row.corrects) : '';
  // Issue 32 cases 5 and 6: the file's own reason (type by content, size), not 'File not found'.
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

/** The answers of the parts as one: per investor, every hash they already have and every title. */
export function mergePreviewAnswers(answers: readonly BulkUploadPreviewAnswer[]): BulkUploadPreviewAnswer {
  const users = new Map<string, { email: string; userId: number; publishedSha256: Set<string>; titles: Set<string>; active?: boolean }>();
  for (const answer of answers) {
    for (const user of answer.users) {
      const key = user.email.toLowerCase();
      const merged = users.get(key) ?? {
        email: user.email,
        userId: user.userId,
        publishedSha256: new Set<string>(),
        titles: new Set<string>(),
        ...(user.active === undefined ? {} : { active: user.active }),
      };
      for (const hash of user.publishedSha256) merged.publishedSha256.add(hash);
      for (const title of user.titles) merged.titles.add(title);
      users.set(key, merged);
    }
  }
  return {
    users: [...users.values()].map((u) => ({
      email: u.email,
      userId: u.userId,
      publishedSha256: [...u.publishedSha256],
      titles: [...u.titles],
      ...(u.active === undefined ? {} : { active: u.active }),
    })),
  };
}
