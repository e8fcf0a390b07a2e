import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { quarters } from '@everest/core/domain';
import type { AsyncMethods, IpcMethod } from '../../shared/api';
import { serverUrlSchema } from '../../shared/settings';
import type { Portal } from '../../sync/portal';
import { readDroppedPdfs, stageContentMatch } from '../folder-drop/content-match-drop';
import { planFolderDrop } from '../folder-drop/drop-plan';
import type { FolderUploads } from '../folder-drop/folder-upload';
import type { DesktopSession } from '../session/desktop-session';
import type { SettingsStore } from '../settings/settings-store';
import type { WatchedFolder } from '../watched-folder/watched-folder';

export interface BridgeContext {
  settings: SettingsStore;
  session: DesktopSession;
  portal: Portal;
  folderUploads: FolderUploads;
  watchedFolder: WatchedFolder;
  /** The app's own folder where Match by content's confirmed batches are written. */
  contentMatchDirectory: string;
  /** The system's folder dialog, for the window that asked; null when cancelled. */
  chooseFolder(): Promise<string | null>;
}

/** A handler: the argument tuple it accepts, and what it does with it. */
export interface BridgeHandler<M extends IpcMethod> {
  args: z.ZodType<Parameters<AsyncMethods[M]>>;
  run(args: Parameters<AsyncMethods[M]>): ReturnType<AsyncMethods[M]>;
}

export type BridgeHandlers = { [M in IpcMethod]: BridgeHandler<M> };

const absolutePath = z.string().refine(isAbsolute, 'A folder is named by its absolute path.');
const noArgs = z.tuple([]);

/**
 * What each asynchronous bridge method does in the main process, with the arguments it accepts.
 * A record over every channel: one left out fails typecheck. Transport-free, so that ipc.ts
 * serves it over Electron's IPC and the renderer's Chromium tests over HTTP, the same code.
 * `forWindow` gives the dialog of the window that asked.
 */
export function createBridgeHandlers(context: Omit<BridgeContext, 'chooseFolder'>, forWindow: () => Pick<BridgeContext, 'chooseFolder'>): BridgeHandlers {
  const { settings, session, portal, folderUploads, watchedFolder, contentMatchDirectory } = context;

  async function stopWork(): Promise<void> {
    await watchedFolder.stop();
    await folderUploads.pause();
  }

  return {
    getSettings: { args: noArgs, run: () => settings.read() },
    setServerUrl: {
      args: z.tuple([serverUrlSchema]),
      run: async ([serverUrl]) => {
        const before = await settings.read();
        const saved = await settings.update({ serverUrl });
        // A token belongs to the server that issued it: another address signs out.
        if (saved.serverUrl !== before.serverUrl) {
          await stopWork();
          await session.signOut();
          await session.restore(saved.serverUrl);
        }
        return saved;
      },
    },
    chooseFolder: { args: noArgs, run: () => forWindow().chooseFolder() },
    getSession: { args: noArgs, run: async () => session.state() },
    signIn: {
      args: z.tuple([z.string().trim().min(1, 'Enter your e-mail.'), z.string().min(1, 'Enter your password.')]),
      run: async ([email, password]) => session.signIn((await settings.read()).serverUrl, email, password),
    },
    verifySecondStep: {
      args: z.tuple([z.string().trim().min(1, 'Enter the code from your authenticator app or a backup code.').max(40)]),
      run: ([code]) => session.verifySecondStep(code),
    },
    signOut: {
      args: noArgs,
      run: async () => {
        await stopWork();
        return session.signOut();
      },
    },
    planFolderDrop: { args: z.tuple([absolutePath]), run: ([folder]) => planFolderDrop(folder, portal) },
    readDroppedPdfs: {
      args: z.tuple([absolutePath, z.array(z.string().min(1)).max(20_000)]),
      run: ([folder, paths]) => readDroppedPdfs(folder, paths),
    },
    stageContentMatch: {
      args: z.tuple([
        z.object({
          year: z.number().int(),
          quarter: z.enum(quarters),
          manifest: z.string(),
          documents: z.array(z.object({ name: z.string().min(1), bytes: z.instanceof(Uint8Array) })).max(20_000),
        }),
      ]),
      run: ([batch]) => stageContentMatch(contentMatchDirectory, batch),
    },
    startFolderUpload: {
      args: z.tuple([absolutePath, z.object({ emailNotification: z.boolean() })]),
      run: ([folder, options]) => folderUploads.start(folder, options),
    },
    pauseFolderUpload: { args: noArgs, run: () => folderUploads.pause() },
    getFolderUpload: { args: noArgs, run: async () => folderUploads.status() },
    clearFolderUpload: { args: noArgs, run: () => folderUploads.clear() },
    chooseWatchedFolder: {
      args: noArgs,
      run: async () => {
        const folder = await forWindow().chooseFolder();
        return folder ? settings.update({ watchedFolder: folder }) : settings.read();
      },
    },
    startSync: { args: noArgs, run: async () => watchedFolder.start((await settings.read()).watchedFolder) },
    stopSync: { args: noArgs, run: () => watchedFolder.stop() },
    getSyncStatus: { args: noArgs, run: async () => watchedFolder.status() },
  };
}

/** Runs one bridge call: its arguments checked, a refusal as an Error with the first sentence. */
export function callBridge<M extends IpcMethod>(handlers: BridgeHandlers, method: M, input: unknown[]): ReturnType<AsyncMethods[M]> {
  const handler: BridgeHandler<M> = handlers[method];
  const parsed = handler.args.safeParse(input);
  if (!parsed.success) {
    throw new Error(parsed.error.issues[0]?.message ?? `Invalid input for ${method}.`);
  }
  return handler.run(parsed.data);
}
