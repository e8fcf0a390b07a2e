import type { FileStore } from './file-store';

const ttlMs = 60_000;

/**
 * Whether stored files are really on disk, for the lists' `fileExists`. A list of hundreds of
 * documents would otherwise cost hundreds of stat calls per request; the answer is kept a
 * minute (files go missing rarely, and a download always checks for itself).
 */
export class FileExistence {
  private readonly known = new Map<string, { exists: boolean; at: number }>();

  constructor(private readonly files: FileStore) {}

  async existing(sha256s: string[], now = Date.now()): Promise<Set<string>> {
    const unique = [...new Set(sha256s)];
    const result = new Set<string>();
    const toCheck: string[] = [];
    for (const sha of unique) {
      const entry = this.known.get(sha);
      if (entry && now - entry.at < ttlMs) {
        if (entry.exists) result.add(sha);
      } else {
        toCheck.push(sha);
      }
    }
    await Promise.all(
      toCheck.map(async (sha) => {
        const exists = await this.files.exists(sha);
        this.known.set(sha, { exists, at: now });
        if (exists) result.add(sha);
      }),
    );
    return result;
  }

  /** A download found the file missing (or back): believe it at once. */
  remember(sha256: string, exists: boolean): void {
    this.known.set(sha256, { exists, at: Date.now() });
  }
}
