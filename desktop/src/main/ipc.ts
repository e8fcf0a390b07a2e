import { isAbsolute } from 'node:path';
import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent, type OpenDialogOptions } from 'electron';
import { z } from 'zod';
import { ipcChannels, type AsyncMethods, type IpcMethod } from '../shared/api';
import { serverUrlSchema } from '../shared/settings';
import type { DesktopSession } from './session/desktop-session';
import type { SettingsStore } from './settings/settings-store';
import type { FolderUploads } from './folder-drop/folder-upload';
import type { WatchedFolder } from './watched-folder/watched-folder';
import { planFolderDrop } from './folder-drop/drop-plan';
import type { Portal } from '../sync/portal';

interface IpcContext {
  settings: SettingsStore;
  session: DesktopSession;
  portal: Portal;
  folderUploads: FolderUploads;
  watchedFolder: WatchedFolder;
  /** Whether a frame URL is the app's own renderer (see navigation-policy). */
  isAppUrl(url: string): boolean;
}

/** A handler: the argument tuple it accepts, and what it does with it. */
interface Handler<M extends IpcMethod> {
  args: z.ZodType<Parameters<AsyncMethods[M]>>;
  run(args: Parameters<AsyncMethods[M]>, event: IpcMainInvokeEvent): ReturnType<AsyncMethods[M]>;
}

const absolutePath = z.string().refine(isAbsolute, 'A folder is named by its absolute path.');
const noArgs = z.tuple([]);

/** Registers every asynchronous bridge method; the only place `ipcMain` is used. */
export function registerIpcHandlers(context: IpcContext): void {
  const { settings, session, portal, folderUploads, watchedFolder, isAppUrl } = context;

  async function chooseFolder(event: IpcMainInvokeEvent): Promise<string | null> {
    const window = BrowserWindow.fromWebContents(event.sender);
    const options: OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] };
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  // A record over every method: one left out fails typecheck, so no bridge call goes unanswered.
  const handlers: { [M in IpcMethod]: Handler<M> } = {
    getSettings: { args: noArgs, run: () => settings.read() },
    setServerUrl: {
      args: z.tuple([serverUrlSchema]),
      run: async ([serverUrl]) => {
        const before = await settings.read();
        const saved = await settings.update({ serverUrl });
        // A token belongs to the server that issued it: another address signs out.
        if (saved.serverUrl !== before.serverUrl) {
          await watchedFolder.stop();
          await folderUploads.pause();
          await session.signOut();
          await session.restore(saved.serverUrl);
        }
        return saved;
      },
    },
    chooseFolder: { args: noArgs, run: (_, event) => chooseFolder(event) },
    getSession: { args: noArgs, run: async () => session.state() },
    signIn: {
      args: z.tuple([z.string().trim().min(1, 'Enter your e-mail.'), z.string().min(1, 'Enter your password.')]),
      run: async ([email, password]) => session.signIn((await settings.read()).serverUrl, email, password),
    },
    signOut: {
      args: noArgs,
      run: async () => {
        await watchedFolder.stop();
        await folderUploads.pause();
        return session.signOut();
      },
    },
    planFolderDrop: { args: z.tuple([absolutePath]), run: ([folder]) => planFolderDrop(folder, portal) },
    startFolderUpload: {
      args: z.tuple([absolutePath, z.object({ emailNotification: z.boolean() })]),
      run: ([folder, options]) => folderUploads.start(folder, options),
    },
    pauseFolderUpload: { args: noArgs, run: () => folderUploads.pause() },
    getFolderUpload: { args: noArgs, run: async () => folderUploads.status() },
    clearFolderUpload: { args: noArgs, run: () => folderUploads.clear() },
    chooseWatchedFolder: {
      args: noArgs,
      run: async (_, event) => {
        const folder = await chooseFolder(event);
        return folder ? settings.update({ watchedFolder: folder }) : settings.read();
      },
    },
    startSync: { args: noArgs, run: async () => watchedFolder.start((await settings.read()).watchedFolder) },
    stopSync: { args: noArgs, run: () => watchedFolder.stop() },
    getSyncStatus: { args: noArgs, run: async () => watchedFolder.status() },
  };

  for (const method of Object.keys(ipcChannels) as IpcMethod[]) register(method, handlers[method]);

  function register<M extends IpcMethod>(method: M, handler: Handler<M>): void {
    ipcMain.handle(ipcChannels[method], (event, ...input: unknown[]) => {
      // Every call is checked for its sender: only the admin panel's own frame may use the bridge.
      const senderUrl = event.senderFrame?.url;
      if (!senderUrl || !isAppUrl(senderUrl)) {
        throw new Error(`Refused ${method} from a page that is not the admin panel.`);
      }
      const parsed = handler.args.safeParse(input);
      if (!parsed.success) {
        // The renderer sees only this message, as the rejection of its promise.
        throw new Error(parsed.error.issues[0]?.message ?? `Invalid input for ${method}.`);
      }
      return handler.run(parsed.data, event);
    });
  }
}
