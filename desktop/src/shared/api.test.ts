import { describe, expect, expectTypeOf, it } from 'vitest';
import { ipcChannels, ipcEvents, type AsyncMethods, type DesktopApi } from './api';

describe('the bridge channel table', () => {
  it('has a channel for every asynchronous bridge method and for nothing else', () => {
    // Checked by the type checker (`pnpm typecheck`): a method added to DesktopApi without its
    // channel, or a channel for a method that is gone, fails there.
    expectTypeOf<keyof typeof ipcChannels>().toEqualTypeOf<keyof AsyncMethods>();
    // The synchronous members are the preload's own: no channel carries them.
    expectTypeOf<Exclude<keyof DesktopApi, keyof AsyncMethods>>().toEqualTypeOf<
      'onSessionChange' | 'getPathForFile' | 'onFolderUpload' | 'onSyncStatus' | 'appVersion'
    >();
  });

  it('gives every method and every push its own channel name', () => {
    const names = [...Object.values(ipcChannels), ...Object.values(ipcEvents)];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z-]+:[a-z-]+$/);
  });
});
