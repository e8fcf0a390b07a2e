import type { Settings } from './settings';

export type { Settings };

/** The one bridge the preload exposes to the renderer as `window.desktop`. */
export interface DesktopApi {
  getSettings(): Promise<Settings>;
  /** Answers the saved settings; rejects with a sentence when the address is not valid. */
  setServerUrl(url: string): Promise<Settings>;
  /** Answers the chosen folder's absolute path, or null when the dialog was cancelled. */
  chooseFolder(): Promise<string | null>;
  readonly appVersion: string;
}

/** The asynchronous bridge methods, each carried over its own `ipcRenderer.invoke` channel. */
export const ipcChannels = {
  getSettings: 'settings:get',
  setServerUrl: 'settings:set-server-url',
  chooseFolder: 'dialog:choose-folder',
} as const satisfies Partial<Record<keyof DesktopApi, string>>;

export type IpcMethod = keyof typeof ipcChannels;

/**
 * The main process passes the version to the sandboxed preload as a command-line switch
 * (`webPreferences.additionalArguments`), since the preload cannot reach `app`.
 */
export const appVersionSwitch = '--everest-app-version=';
