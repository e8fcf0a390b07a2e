import type { Page } from '@playwright/test';
import { ipcChannels, ipcEvents } from '../../src/shared/api';

interface BridgeOptions {
  methods: string[];
  /** Where dropped test folders live: `getPathForFile` answers `<root>/<file name>`. */
  fixtureRoot: string;
}

/**
 * The test build of the preload: a `window.desktop` with the bridge's methods, each a POST to
 * the test main process (support/bridge-server.ts), and its pushes from server-sent events. The
 * renderer gets the same shape as from Electron's preload and cannot tell the difference.
 * Runs in the page (serialized by Playwright): it may use nothing from outside its arguments.
 */
function installBridge({ methods, fixtureRoot, events }: BridgeOptions & { events: Record<string, string> }) {
  // Bytes travel as { $bytes: base64 } (support/bridge-server.ts), as Uint8Arrays on either side.
  const toBase64 = (bytes: Uint8Array) => {
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  };
  const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  async function call(method: string, args: unknown[]): Promise<unknown> {
    const response = await fetch(`/__bridge/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args, (_, value: unknown) => (value instanceof Uint8Array ? { $bytes: toBase64(value) } : value)),
    });
    const body = JSON.parse(await response.text(), (_, value: unknown) =>
      value && typeof value === 'object' && '$bytes' in value ? fromBase64((value as { $bytes: string }).$bytes) : value,
    ) as unknown;
    if (!response.ok) throw new Error((body as { error: string }).error);
    return body;
  }
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const source = new EventSource('/__bridge/events');
  source.onmessage = (event: MessageEvent<string>) => {
    const { channel, payload } = JSON.parse(event.data) as { channel: string; payload: unknown };
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  };
  const subscribe = (channel: string) => (listener: (payload: unknown) => void) => {
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => void set.delete(listener);
  };
  const desktop: Record<string, unknown> = Object.fromEntries(methods.map((m) => [m, (...args: unknown[]) => call(m, args)]));
  desktop.getPathForFile = (file: File) => `${fixtureRoot}/${file.name}`;
  desktop.onSessionChange = subscribe(events.session!);
  desktop.onFolderUpload = subscribe(events.folderUpload!);
  desktop.onSyncStatus = subscribe(events.syncStatus!);
  desktop.appVersion = '0.1.0-test';
  Object.defineProperty(window, 'desktop', { value: Object.freeze(desktop) });
}

export async function installTestBridge(page: Page, fixtureRoot: string): Promise<void> {
  await page.addInitScript(installBridge, { methods: Object.keys(ipcChannels), events: { ...ipcEvents }, fixtureRoot });
}
