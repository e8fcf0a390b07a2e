import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent, type OpenDialogOptions } from 'electron';
import { ipcChannels, type IpcMethod } from '../shared/api';
import { callBridge, createBridgeHandlers, type BridgeContext } from './bridge/bridge-handlers';

async function chooseFolder(event: IpcMainInvokeEvent): Promise<string | null> {
  const window = BrowserWindow.fromWebContents(event.sender);
  const options: OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** Serves every bridge method over IPC; the only place `ipcMain` is used. */
export function registerIpcHandlers(
  context: Omit<BridgeContext, 'chooseFolder'> & {
    /** Whether a frame URL is the app's own renderer (see navigation-policy). */
    isAppUrl(url: string): boolean;
  },
): void {
  for (const method of Object.keys(ipcChannels) as IpcMethod[]) {
    ipcMain.handle(ipcChannels[method], (event, ...input: unknown[]) => {
      // Every call is checked for its sender: only the admin panel's own frame may use the bridge.
      const senderUrl = event.senderFrame?.url;
      if (!senderUrl || !context.isAppUrl(senderUrl)) {
        throw new Error(`Refused ${method} from a page that is not the admin panel.`);
      }
      const handlers = createBridgeHandlers(context, () => ({ chooseFolder: () => chooseFolder(event) }));
      // The renderer sees only the error's message, as the rejection of its promise.
      return callBridge(handlers, method, input);
    });
  }
}
