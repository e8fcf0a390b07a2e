import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Ledger } from '../../sync/ledger';
import type { Portal } from '../../sync/portal';
import { SyncEngine } from '../../sync/sync-engine';
import type { FolderUploadStatus } from '../../shared/api';
import { progressOf } from '../sync-progress/file-progress';

export const folderUploadMessages = {
  busy: 'Another folder is being uploaded: pause it or wait for it to finish.',
} as const;

const uploadJob = z.object({
  folder: z.string().min(1),
  emailNotification: z.boolean(),
  state: z.enum(['running', 'paused', 'done']),
  /** When this upload began (epoch ms): what it published since counts as published, also after a pause. */
  startedAt: z.number().optional(),
});
type UploadJob = z.infer<typeof uploadJob>;

export interface FolderUploads {
  /** Reads the last upload; one left running by a closed app comes back paused. */
  restore(): Promise<FolderUploadStatus | null>;
  start(folder: string, options: { emailNotification: boolean }): Promise<FolderUploadStatus>;
  pause(): Promise<FolderUploadStatus | null>;
  status(): FolderUploadStatus | null;
  clear(): Promise<void>;
}

/**
 * A dropped folder is published by the watched-folder sync engine run once over it, with a
 * ledger of its own: the same layout, the same never-twice rules and the same uploads as the
 * sync. Pausing stops the engine as a crash would; resuming (in this run or after a restart)
 * starts it again on the same ledger, which knows what was sent and asks the server about what
 * was on its way.
 */
export function createFolderUploads(options: {
  /** The app's own folder (userData): the job file and one ledger per dropped folder. */
  directory: string;
  portal: Portal;
  onStatus: (status: FolderUploadStatus) => void;
  /** How long a dropped file must stand still before it is read (default 500 ms). */
  stabilityMs?: number;
}): FolderUploads {
  const jobFile = path.join(options.directory, 'folder-upload.json');
  let job: UploadJob | null = null;
  let engine: SyncEngine | null = null;
  let ledger: Ledger | null = null;

  const ledgerFileOf = (folder: string) =>
    path.join(options.directory, 'folder-uploads', `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.json`);

  async function saveJob(): Promise<void> {
    if (!job) return;
    await mkdir(options.directory, { recursive: true });
    await writeFile(`${jobFile}.tmp`, JSON.stringify(job));
    await rename(`${jobFile}.tmp`, jobFile);
  }

  function status(): FolderUploadStatus | null {
    if (!job) return null;
    const progress = progressOf(engine, ledger, job.startedAt);
    return {
      folder: job.folder,
      state: job.state,
      emailNotification: job.emailNotification,
      files: progress.files,
      done: progress.done,
      total: progress.files.length,
      counts: progress.counts,
      summary: progress.summary,
      unreachable: engine?.status().unreachable ?? engine?.stoppedBecause ?? null,
    };
  }

  function report(): void {
    const current = status();
    if (current) options.onStatus(current);
  }

  async function stopEngine(): Promise<void> {
    const running = engine;
    engine = null;
    await running?.stop();
  }

  return {
    async restore() {
      try {
        const parsed = uploadJob.safeParse(JSON.parse(await readFile(jobFile, 'utf8')));
        job = parsed.success ? parsed.data : null;
      } catch {
        job = null;
      }
      if (!job) return null;
      if (job.state === 'running') job.state = 'paused';
      ledger = await Ledger.open(ledgerFileOf(job.folder));
      return status();
    },
    async start(folder, { emailNotification }) {
      if (engine && job?.folder !== folder) throw new Error(folderUploadMessages.busy);
      await stopEngine();
      // Resuming a paused upload goes on with its own start; a new drop starts a new report.
      const resumed = job?.folder === folder && job.state === 'paused' ? job.startedAt : undefined;
      job = { folder, emailNotification, state: 'running', startedAt: resumed ?? Date.now() };
      await saveJob();
      const started = await SyncEngine.create({
        folder,
        ledgerFile: ledgerFileOf(folder),
        portal: options.portal,
        watch: false,
        runBy: 'desktop app',
        stabilityMs: options.stabilityMs ?? 500,
        emailNotification,
        maxAttempts: 5,
        reportSince: job.startedAt,
        onEvent: report,
      });
      engine = started;
      ledger = started.ledger;
      await started.start();
      void started.idle().then(async () => {
        if (engine !== started) return;
        await stopEngine();
        if (job) job.state = 'done';
        await saveJob();
        report();
      });
      report();
      return status()!;
    },
    async pause() {
      if (!job || job.state !== 'running') return status();
      await stopEngine();
      job.state = 'paused';
      await saveJob();
      report();
      return status();
    },
    status,
    async clear() {
      await stopEngine();
      job = null;
      ledger = null;
      await rm(jobFile, { force: true });
    },
  };
}
