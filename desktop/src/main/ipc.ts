import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent, type OpenDialogOptions } from 'electron';
import { z } from 'zod';
import { ipcChannels, type DesktopApi, type IpcMethod } from '../shared/api';
import { serverUrlSchema } from '../shared/settings';
import type { SettingsStore } from './settings/settings-store';

interface IpcContext {
  settings: SettingsStore;
  /** Whether a frame URL is the app's own renderer (see navigation-policy). */
  isAppUrl(url: string): boolean;
}

/** Registers every bridge method of `DesktopApi`; the only place `ipcMain` is used. */
export function registerIpcHandlers({ settings, isAppUrl }: IpcContext): void {
  // Each handler states the argument tuple it accepts; the types tie it to DesktopApi.
  function handle<M extends IpcMethod>(
    method: M,
    args: z.ZodType<Parameters<DesktopApi[M]>>,
    run: (args: Parameters<DesktopApi[M]>, event: IpcMainInvokeEvent) => ReturnType<DesktopApi[M]>,
  ): void {
    ipcMain.handle(ipcChannels[method], (event, ...input: unknown[]) => {
      const senderUrl = event.senderFrame?.url;
      if (!senderUrl || !isAppUrl(senderUrl)) {
        throw new Error(`Refused ${method} from a page that is not the admin panel.`);
      }
      const parsed = args.safeParse(input);
      if (!parsed.success) {
        // The renderer sees only this message, as the rejection of its promise.
        throw new Error(parsed.error.issues[0]?.message ?? `Invalid input for ${method}.`);
      }
      return run(parsed.data, event);
    });
  }

  handle('getSettings', z.tuple([]), () => settings.read());

  handle('setServerUrl', z.tuple([serverUrlSchema]), ([serverUrl]) => settings.update({ serverUrl }));

  handle('chooseFolder', z.tuple([]), async (_, event) => {
    const window = BrowserWindow.fromWebContents(event.sender);
    const options: OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] };
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  });
}
