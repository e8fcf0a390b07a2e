import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { defaultSettings, portalAddressMessages } from '../../shared/settings';
import { createSettingsStore, settingsFileName } from './settings-store';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'everest-settings-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const writeSettingsFile = (text: string) => writeFile(join(directory, settingsFileName), text, 'utf8');

describe('settings store', () => {
  it('answers the defaults when no settings file exists yet', async () => {
    await expect(createSettingsStore(directory).read()).resolves.toEqual(defaultSettings);
    expect(await readdir(directory)).toEqual([]);
  });

  it('keeps a changed server address for the next start', async () => {
    await createSettingsStore(directory).update({ serverUrl: 'https://portal.example.com' });

    await expect(createSettingsStore(directory).read()).resolves.toEqual({
      serverUrl: 'https://portal.example.com',
      watchedFolder: null,
    });
    const file = JSON.parse(await readFile(join(directory, settingsFileName), 'utf8'));
    expect(file).toEqual({ serverUrl: 'https://portal.example.com', watchedFolder: null });
  });

  it('keeps the other settings when one is changed', async () => {
    const store = createSettingsStore(directory);
    await store.update({ watchedFolder: '/srv/quarterly' });
    await store.update({ serverUrl: 'https://10.0.0.5:3000' });

    await expect(store.read()).resolves.toEqual({
      serverUrl: 'https://10.0.0.5:3000',
      watchedFolder: '/srv/quarterly',
    });
  });

  it('stores a server address as its origin', async () => {
    const saved = await createSettingsStore(directory).update({ serverUrl: '  HTTPS://Portal.Example.com/ ' });
    expect(saved.serverUrl).toBe('https://portal.example.com');
  });

  it.each([
    'portal.example.com',
    'ftp://portal.example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://portal.example.com/admin',
    'https://portal.example.com/?token=1',
    'https://admin:secret@portal.example.com',
    'http://localhost@portal.example.com',
    `https://${'a'.repeat(3000)}.example.com`,
    'https://portal\u0000.example.com',
    '',
  ])('refuses %j as a server address and leaves the file alone', async (serverUrl) => {
    const store = createSettingsStore(directory);
    await expect(store.update({ serverUrl })).rejects.toBeInstanceOf(ZodError);
    expect(await readdir(directory)).toEqual([]);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:4321', 'http://[::1]:3000', 'HTTP://LocalHost:3000/'])(
    'accepts plain http for a portal on this computer: %j',
    async (serverUrl) => {
      const saved = await createSettingsStore(directory).update({ serverUrl });
      expect(saved.serverUrl).toBe(new URL(serverUrl).origin);
    },
  );

  it.each(['http://portal.example.com', 'http://10.0.0.5:3000', 'http://192.168.1.20', 'http://127.0.0.1.nip.io', 'http://localhost.example.com'])(
    'refuses plain http for a portal on another computer, with a sentence: %j',
    async (serverUrl) => {
      const store = createSettingsStore(directory);
      await expect(store.update({ serverUrl })).rejects.toThrow(portalAddressMessages.plainHttp);
      expect(await readdir(directory)).toEqual([]);
    },
  );

  it('starts with the default address when the stored one is plain http to another computer', async () => {
    await writeSettingsFile(JSON.stringify({ serverUrl: 'http://portal.example.com', watchedFolder: '/srv/quarterly' }));
    await expect(createSettingsStore(directory).read()).resolves.toEqual({
      serverUrl: defaultSettings.serverUrl,
      watchedFolder: '/srv/quarterly',
    });
  });

  it('creates the settings folder when it does not exist yet', async () => {
    const nested = join(directory, 'Everest', 'config');
    await createSettingsStore(nested).update({ serverUrl: 'https://portal.example.com' });
    expect(await readdir(nested)).toEqual([settingsFileName]);
  });

  it('applies quick successive changes one after another without losing any', async () => {
    const store = createSettingsStore(directory);
    await Promise.all([
      store.update({ serverUrl: 'https://portal.example.com' }),
      store.update({ watchedFolder: '/srv/quarterly' }),
    ]);
    await expect(store.read()).resolves.toEqual({
      serverUrl: 'https://portal.example.com',
      watchedFolder: '/srv/quarterly',
    });
  });

  it('goes on accepting changes after refusing one', async () => {
    const store = createSettingsStore(directory);
    await expect(store.update({ serverUrl: 'nope' })).rejects.toThrow();
    await expect(store.update({ serverUrl: 'https://portal.example.com' })).resolves.toMatchObject({
      serverUrl: 'https://portal.example.com',
    });
  });

  it('leaves only the settings file behind after writing', async () => {
    const store = createSettingsStore(directory);
    await store.update({ serverUrl: 'https://a.example.com' });
    await store.update({ serverUrl: 'https://b.example.com' });
    expect(await readdir(directory)).toEqual([settingsFileName]);
  });

  it('falls back to the defaults when the file is not valid JSON', async () => {
    await writeSettingsFile('{"serverUrl": "https://portal.exa');
    await expect(createSettingsStore(directory).read()).resolves.toEqual(defaultSettings);
  });

  it('falls back to the defaults when the file holds no object', async () => {
    await writeSettingsFile('["https://portal.example.com"]');
    await expect(createSettingsStore(directory).read()).resolves.toEqual(defaultSettings);
  });

  it('keeps the valid settings of a file whose other settings are invalid', async () => {
    await writeSettingsFile(JSON.stringify({ serverUrl: 'https://portal.example.com', watchedFolder: 42 }));
    await expect(createSettingsStore(directory).read()).resolves.toEqual({
      serverUrl: 'https://portal.example.com',
      watchedFolder: null,
    });

    await writeSettingsFile(JSON.stringify({ serverUrl: 'gopher://old', watchedFolder: '/srv/quarterly' }));
    await expect(createSettingsStore(directory).read()).resolves.toEqual({
      serverUrl: defaultSettings.serverUrl,
      watchedFolder: '/srv/quarterly',
    });
  });
});
