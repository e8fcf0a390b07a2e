// The Electron main process: window, navigation policy, the app scheme and IPC wiring only;
// the work itself lives in plain modules under src/main/<service>/ that run and are tested in
// Node. How to run and package it: desktop/README.md.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, net, protocol, safeStorage, session, shell, type WebContents } from 'electron';
import { appVersionSwitch, ipcEvents } from '../shared/api';
import { forwardApiRequest } from './api-forward/api-forward';
import { createFolderUploads } from './folder-drop/folder-upload';
import { registerIpcHandlers } from './ipc';
import { appEntryUrl, appOrigin, appScheme, isAppUrl, navigationAction, resolveAppFile, windowOpenAction, type NavigationKind } from './navigation/navigation-policy';
import { permissionGranted } from './navigation/permission-policy';
import { withRendererHeaders } from './navigation/renderer-headers';
import { createDesktopSession } from './session/desktop-session';
import { createSessionPortal } from './session/session-portal';
import { createTokenVault, keepsTokenOnDisk } from './session/token-vault';
import { createSettingsStore } from './settings/settings-store';
import { createWatchedFolder } from './watched-folder/watched-folder';

// During `electron-vite dev` the renderer's files come from its dev server, still through the
// app scheme, so that the origin, the CSP and the API forwarding are those of the built app.
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const rendererDirectory = join(import.meta.dirname, '../renderer');
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');

// Privileges must be granted before `ready`; `standard` and `secure` give the scheme a
// real origin for CSP, fetch and storage; `stream` lets downloads and uploads flow.
protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

// One instance only: a second one would sync the same watched folder twice.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  void app.whenReady().then(start);
}

// Every call to the portal goes through Electron's network stack, never Node's: the system's
// proxy settings and certificate authorities apply, as they do in the company's browser.
const netFetch: typeof globalThis.fetch = (input, init) =>
  net.fetch(input instanceof URL ? input.toString() : input, init);

function broadcast(channel: string, payload: unknown): void {
  for (const window of BrowserWindow.getAllWindows()) window.webContents.send(channel, payload);
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  const settings = createSettingsStore(userData);
  const cipher = keepsTokenOnDisk({
    platform: process.platform,
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    linuxBackend: process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined,
  })
    ? { encrypt: (text: string) => safeStorage.encryptString(text), decrypt: (data: Buffer) => safeStorage.decryptString(data) }
    : null;
  const { serverUrl } = await settings.read();
  const desktopSession = createDesktopSession({
    vault: createTokenVault(join(userData, 'session.bin'), cipher),
    initialServerUrl: serverUrl,
    fetch: netFetch,
  });
  desktopSession.onChange((state) => broadcast(ipcEvents.session, state));
  const portal = createSessionPortal(desktopSession);
  const folderUploads = createFolderUploads({
    directory: userData,
    portal,
    onStatus: (status) => broadcast(ipcEvents.folderUpload, status),
  });
  const watchedFolder = createWatchedFolder({
    directory: userData,
    portal,
    onStatus: (status) => broadcast(ipcEvents.syncStatus, status),
  });
  await Promise.all([desktopSession.restore(serverUrl), folderUploads.restore()]);

  protocol.handle(appScheme, async (request) => {
    const forwarded = await forwardApiRequest(request, {
      appOrigin,
      serverUrl: desktopSession.state().serverUrl,
      token: desktopSession.token(),
      fetch: netFetch,
      onUnauthorized: () => void desktopSession.ended(),
    });
    if (forwarded) return forwarded;
    // The renderer's own files carry its CSP as a header (a <meta> cannot hold frame-ancestors).
    if (devServerUrl) {
      const url = new URL(request.url);
      return withRendererHeaders(await net.fetch(new URL(`${url.pathname}${url.search}`, devServerUrl).toString()));
    }
    const file = resolveAppFile(rendererDirectory, request.url);
    return withRendererHeaders(file ? await net.fetch(pathToFileURL(file).toString()) : new Response('Not found', { status: 404 }));
  });
  // The admin panel needs no camera, microphone, notifications or the like: only the clipboard
  // for "Copy password". Checks and requests answer alike (Chromium checks before it asks).
  session.defaultSession.setPermissionCheckHandler((_, permission, requestingOrigin, details) =>
    permissionGranted({ permission, requestingUrl: details.requestingUrl ?? requestingOrigin, isMainFrame: details.isMainFrame }),
  );
  session.defaultSession.setPermissionRequestHandler((_, permission, allow, details) =>
    allow(permissionGranted({ permission, requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame })),
  );
  app.on('web-contents-created', (_, contents) =>
    applyNavigationPolicy(contents, () => desktopSession.state().serverUrl),
  );
  registerIpcHandlers({
    settings,
    session: desktopSession,
    portal,
    folderUploads,
    watchedFolder,
    contentMatchDirectory: join(userData, 'content-matched'),
    isAppUrl: (url) => isAppUrl(url, appEntryUrl),
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  createWindow();
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Everest Admin',
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      additionalArguments: [`${appVersionSwitch}${app.getVersion()}`],
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appEntryUrl);
}

// Applied to every web contents: nothing opens a new window, the app never navigates away
// from its renderer (a link, a frame, or a server's redirect), and only https links or the
// portal's own pages leave the app, for the system browser.
function applyNavigationPolicy(contents: WebContents, serverUrl: () => string): void {
  contents.setWindowOpenHandler(({ url }) => {
    const open = windowOpenAction(url, serverUrl());
    if (open.action === 'download') contents.downloadURL(open.url);
    if (open.action === 'external') void shell.openExternal(open.url);
    return { action: 'deny' };
  });
  const guard = (kind: NavigationKind) => (event: { url: string; preventDefault(): void }) => {
    const decision = navigationAction(kind, event.url, serverUrl());
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.external) void shell.openExternal(decision.external);
  };
  // Electron asks will-navigate first for the main frame, then will-frame-navigate for every
  // frame (the main one only if will-navigate let it through), and will-redirect at each redirect.
  contents.on('will-navigate', guard('navigate'));
  contents.on('will-frame-navigate', guard('frame-navigate'));
  contents.on('will-redirect', guard('redirect'));
}
