import { contextBridge, ipcRenderer } from 'electron';
import { appVersionSwitch, ipcChannels, type DesktopApi } from '../shared/api';

// The renderer gets these functions and nothing else: never `ipcRenderer` itself.
const desktop = {
  getSettings: () => ipcRenderer.invoke(ipcChannels.getSettings),
  setServerUrl: (url: string) => ipcRenderer.invoke(ipcChannels.setServerUrl, url),
  chooseFolder: () => ipcRenderer.invoke(ipcChannels.chooseFolder),
  appVersion: process.argv.find((arg) => arg.startsWith(appVersionSwitch))?.slice(appVersionSwitch.length) ?? '',
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('desktop', desktop);
