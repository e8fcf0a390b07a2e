// The test build of the desktop app's main process, for the renderer's Chromium tests: the
// built renderer and its API forwarding on one origin (as the everest:// scheme does), and the
// bridge's handlers (src/main/bridge) over HTTP instead of IPC, pushes as server-sent events.
// Everything below the transport is the main process's own code; only Electron is absent:
// the token stays in memory (as on Linux without a keyring) and the folder dialog answers
// what the test told it.
//
//   PORT=4320 SERVER_URL=http://127.0.0.1:4321 tsx e2e/support/bridge-server.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ipcChannels, ipcEvents, type IpcMethod } from '../../src/shared/api';
import { forwardApiRequest } from '../../src/main/api-forward/api-forward';
import { callBridge, createBridgeHandlers } from '../../src/main/bridge/bridge-handlers';
import { createFolderUploads } from '../../src/main/folder-drop/folder-upload';
import { appOrigin as everestOrigin, resolveAppFile } from '../../src/main/navigation/navigation-policy';
import { rendererHeaders } from '../../src/main/navigation/renderer-headers';
import { createDesktopSession } from '../../src/main/session/desktop-session';
import { createSessionPortal } from '../../src/main/session/session-portal';
import { createTokenVault } from '../../src/main/session/token-vault';
import { createSettingsStore } from '../../src/main/settings/settings-store';
import { createWatchedFolder } from '../../src/main/watched-folder/watched-folder';

const port = Number(process.env.PORT ?? 4320);
const serverUrl = process.env.SERVER_URL ?? 'http://127.0.0.1:4321';
const origin = `http://127.0.0.1:${port}`;
const rendererDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../out/renderer');

const listeners = new Set<ServerResponse>();
function broadcast(channel: string, payload: unknown): void {
  for (const response of listeners) response.write(`data: ${JSON.stringify({ channel, payload })}\n\n`);
}

/** One app's state: what a fresh install would have. `reset` starts another. */
async function createApp() {
  const userData = mkdtempSync(path.join(os.tmpdir(), 'everest-desktop-e2e-'));
  const settings = createSettingsStore(userData);
  await settings.update({ serverUrl });
  const session = createDesktopSession({ vault: createTokenVault(path.join(userData, 'session.bin'), null), initialServerUrl: serverUrl });
  session.onChange((state) => broadcast(ipcEvents.session, state));
  const portal = createSessionPortal(session);
  // A dropped file waits 1.5 s before it is read (the app: 0.5 s), so that Pause, pressed at
  // once, finds the upload before its first file has left.
  const folderUploads = createFolderUploads({
    directory: userData,
    portal,
    onStatus: (s) => broadcast(ipcEvents.folderUpload, s),
    stabilityMs: 1_500,
  });
  const watchedFolder = createWatchedFolder({
    directory: userData,
    portal,
    onStatus: (s) => broadcast(ipcEvents.syncStatus, s),
    stabilityMs: 250,
  });
  let nextFolder: string | null = null;
  const handlers = createBridgeHandlers({ settings, session, portal, folderUploads, watchedFolder, contentMatchDirectory: path.join(userData, 'content-matched') }, () => ({
    chooseFolder: async () => nextFolder,
  }));
  return {
    userData,
    session,
    handlers,
    setNextFolder: (folder: string | null) => (nextFolder = folder),
    async close() {
      await watchedFolder.stop();
      await folderUploads.pause();
      rmSync(userData, { recursive: true, force: true });
    },
  };
}

let app = await createApp();

// Electron's IPC carries bytes (a Uint8Array) as they are; JSON carries them as { $bytes: base64 }
// both ways (test-bridge.ts does the same in the page).
const bytesKey = '$bytes';

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0
    ? undefined
    : JSON.parse(Buffer.concat(chunks).toString('utf8'), (_, value: unknown) =>
        value && typeof value === 'object' && bytesKey in value ? new Uint8Array(Buffer.from((value as Record<string, string>)[bytesKey]!, 'base64')) : value,
      );
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(body ?? null, (_, value: unknown) => (value instanceof Uint8Array ? { [bytesKey]: Buffer.from(value).toString('base64') } : value)),
  );
}

async function sendResponse(response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  const reader = answer.body?.getReader();
  for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) response.write(part.value);
  response.end();
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', origin);

  if (url.pathname === '/__bridge/events') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(': connected\n\n');
    listeners.add(response);
    request.on('close', () => listeners.delete(response));
    return;
  }
  const bridgeCall = /^\/__bridge\/([A-Za-z]+)$/.exec(url.pathname);
  if (bridgeCall && request.method === 'POST') {
    const method = bridgeCall[1] as IpcMethod;
    if (!(method in ipcChannels)) return sendJson(response, 404, { error: `No bridge method ${method}.` });
    const input = await readJson(request);
    try {
      return sendJson(response, 200, await callBridge(app.handlers, method, Array.isArray(input) ? input : []));
    } catch (error) {
      return sendJson(response, 400, { error: error instanceof Error ? error.message : String(error) });
    }
  }
  // Test controls: a fresh app, and what the folder dialog will answer next.
  if (url.pathname === '/__test/reset' && request.method === 'POST') {
    await app.close();
    app = await createApp();
    return sendJson(response, 200, { userData: app.userData });
  }
  if (url.pathname === '/__test/next-folder' && request.method === 'POST') {
    const body = (await readJson(request)) as { folder: string | null };
    app.setNextFolder(body.folder);
    return sendJson(response, 200, {});
  }

  const forwarded = await forwardApiRequest(
    new Request(url, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: ['GET', 'HEAD'].includes(request.method ?? 'GET') ? undefined : (Readable.toWeb(request) as ReadableStream),
      // @ts-expect-error -- Node's fetch needs `duplex` for a streamed body; the DOM types lack it
      duplex: 'half',
    }),
    {
      appOrigin: origin,
      serverUrl,
      token: app.session.token(),
      onUnauthorized: () => void app.session.ended(),
    },
  );
  if (forwarded) return sendResponse(response, forwarded);

  // The renderer's files, resolved exactly as the app scheme resolves them, with its headers (the CSP).
  const file = resolveAppFile(rendererDirectory, `${everestOrigin}${url.pathname}`);
  if (!file) return sendJson(response, 404, { error: 'Not found' });
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return sendJson(response, 404, { error: 'Not found' });
  }
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  response.writeHead(200, { ...rendererHeaders, 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  response.end(content);
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) sendJson(response, 500, { error: 'The test bridge failed.' });
    else response.end();
  });
}).listen(port, '127.0.0.1', () => console.log(`desktop test bridge on ${origin}, forwarding to ${serverUrl}`));
