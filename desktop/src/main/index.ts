// The Electron main process: window, navigation policy and IPC wiring only; the work
// itself lives in plain modules under src/main/<service>/ that run and are tested in Node.
//
// Run it where the Electron binary is installed (it cannot be downloaded on the build
// machines), from the workspace root:
//   pnpm --filter @everest/desktop build && npx electron desktop
// or with the renderer's dev server and hot reload: pnpm --filter @everest/desktop exec electron-vite dev
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, net, protocol, session, shell, type WebContents } from 'electron';
import { appVersionSwitch } from '../shared/api';
import { registerIpcHandlers } from './ipc';
import { appScheme, isAppUrl, isExternalLink, rendererUrl, resolveAppFile } from './navigation/navigation-policy';
import { createSettingsStore } from './settings/settings-store';

const appUrl = rendererUrl(process.env.ELECTRON_RENDERER_URL);
const rendererDirectory = join(import.meta.dirname, '../renderer');
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');

// Privileges must be granted before `ready`; `standard` and `secure` give the scheme a
// real origin for CSP, fetch and storage.
protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
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
  app.on('web-contents-created', (_, contents) => applyNavigationPolicy(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  void app.whenReady().then(start);
}

function start(): void {
  protocol.handle(appScheme, (request) => {
    const file = resolveAppFile(rendererDirectory, request.url);
    return file ? net.fetch(pathToFileURL(file).toString()) : new Response('Not found', { status: 404 });
  });
  // The admin panel needs no camera, microphone, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_, __, allow) => allow(false));
  registerIpcHandlers({
    settings: createSettingsStore(app.getPath('userData')),
    isAppUrl: (url) => isAppUrl(url, appUrl),
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
  void window.loadURL(appUrl);
}

// Applied to every web contents, including any created later: nothing opens a new
// window, the app never navigates away from its renderer, and only https links leave
// the app, for the system browser.
function applyNavigationPolicy(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url, appUrl)) return;
    event.preventDefault();
    if (isExternalLink(url)) void shell.openExternal(url);
  });
}
