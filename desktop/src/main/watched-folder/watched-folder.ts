import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Portal } from '../../sync/portal';
import { SyncEngine } from '../../sync/sync-engine';
import type { SyncStatus } from '../../shared/api';
import { progressOf } from '../sync-progress/file-progress';

export const watchedFolderMessages = {
  noFolder: 'Choose the folder to watch first.',
} as const;

export interface WatchedFolder {
  start(folder: string | null): Promise<SyncStatus>;
  stop(): Promise<SyncStatus>;
  status(): SyncStatus;
}

/**
 * The watched-folder sync of the window: the same engine as the headless command, run in the
 * main process with the app's session; its ledger lives in the app's folder (userData), one per
 * watched folder, so that choosing another folder and coming back resumes where it was.
 */
export function createWatchedFolder(options: {
  directory: string;
  portal: Portal;
  onStatus: (status: SyncStatus) => void;
  stabilityMs?: number;
}): WatchedFolder {
  let engine: SyncEngine | null = null;
  let folder: string | null = null;
  let problem: string | null = null;

  function status(): SyncStatus {
    const engineStatus = engine?.status();
    const progress = progressOf(engine, null);
    return {
      folder,
      // An engine that stopped on its own (a refused sign-in, its lock taken over) is not running.
      running: engine !== null && !engineStatus?.stoppedBecause,
      problem: problem ?? engineStatus?.stoppedBecause ?? engineStatus?.unreachable ?? null,
      files: progress.files,
      needsAttention: progress.files
        .filter((f) => f.state === 'needs-attention')
        .map((f) => ({ path: f.path, ...(f.row === undefined ? {} : { row: f.row }), reason: f.message })),
      counts: progress.counts,
      summary: progress.summary,
    };
  }

  const report = () => options.onStatus(status());

  async function stop(): Promise<SyncStatus> {
    const running = engine;
    engine = null;
    await running?.stop();
    report();
    return status();
  }

  return {
    async start(chosen) {
      await stop();
      folder = chosen;
      problem = null;
      if (!chosen) {
        problem = watchedFolderMessages.noFolder;
        return status();
      }
      const ledgerFile = path.join(
        options.directory,
        'sync-ledgers',
        `${createHash('sha256').update(chosen).digest('hex').slice(0, 16)}.json`,
      );
      try {
        engine = await SyncEngine.create({
          folder: chosen,
          ledgerFile,
          portal: options.portal,
          runBy: 'desktop app',
          stabilityMs: options.stabilityMs,
          onEvent: report,
        });
        await engine.start();
      } catch (error) {
        engine = null;
        problem = error instanceof Error ? error.message : String(error);
      }
      report();
      return status();
    },
    stop,
    status,
  };
}
