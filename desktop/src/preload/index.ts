import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { appVersionSwitch, ipcChannels, ipcEvents, type DesktopApi } from '../shared/api';

/** Subscribes a renderer listener to one push channel, handing it the payload only (never the event). */
function subscribe<T>(channel: string, listener: (payload: T) => void): () => void {
  const wrapped = (_: IpcRendererEvent, payload: T) => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => void ipcRenderer.removeListener(channel, wrapped);
}

// The renderer gets these functions and nothing else: never `ipcRenderer` itself.
const desktop = {
  getSettings: () => ipcRenderer.invoke(ipcChannels.getSettings),
  setServerUrl: (url) => ipcRenderer.invoke(ipcChannels.setServerUrl, url),
  chooseFolder: () => ipcRenderer.invoke(ipcChannels.chooseFolder),
  getSession: () => ipcRenderer.invoke(ipcChannels.getSession),
  signIn: (email, password) => ipcRenderer.invoke(ipcChannels.signIn, email, password),
  verifySecondStep: (code) => ipcRenderer.invoke(ipcChannels.verifySecondStep, code),
  signOut: () => ipcRenderer.invoke(ipcChannels.signOut),
  onSessionChange: (listener) => subscribe(ipcEvents.session, listener),
  // `File.path` is gone since Electron 32; only the preload can ask for a dropped file's path.
  getPathForFile: (file) => webUtils.getPathForFile(file),
  planFolderDrop: (folder) => ipcRenderer.invoke(ipcChannels.planFolderDrop, folder),
  readDroppedPdfs: (folder, paths) => ipcRenderer.invoke(ipcChannels.readDroppedPdfs, folder, paths),
  stageContentMatch: (batch) => ipcRenderer.invoke(ipcChannels.stageContentMatch, batch),
  startFolderUpload: (folder, options) => ipcRenderer.invoke(ipcChannels.startFolderUpload, folder, options),
  pauseFolderUpload: () => ipcRenderer.invoke(ipcChannels.pauseFolderUpload),
  getFolderUpload: () => ipcRenderer.invoke(ipcChannels.getFolderUpload),
  clearFolderUpload: () => ipcRenderer.invoke(ipcChannels.clearFolderUpload),
  onFolderUpload: (listener) => subscribe(ipcEvents.folderUpload, listener),
  chooseWatchedFolder: () => ipcRenderer.invoke(ipcChannels.chooseWatchedFolder),
  startSync: () => ipcRenderer.invoke(ipcChannels.startSync),
  stopSync: () => ipcRenderer.invoke(ipcChannels.stopSync),
  getSyncStatus: () => ipcRenderer.invoke(ipcChannels.getSyncStatus),
  onSyncStatus: (listener) => subscribe(ipcEvents.syncStatus, listener),
  appVersion: process.argv.find((arg) => arg.startsWith(appVersionSwitch))?.slice(appVersionSwitch.length) ?? '',
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('desktop', desktop);
