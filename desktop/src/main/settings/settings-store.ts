import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultSettings, serverUrlSchema, settingsSchema, type Settings } from '../../shared/settings';

export const settingsFileName = 'settings.json';

// A hand-edited or half-migrated file must never stop the app from starting: each field
// that does not parse falls back to its default on its own, keeping the others.
const storedSettingsSchema = z
  .object({
    serverUrl: serverUrlSchema.catch(defaultSettings.serverUrl),
    watchedFolder: settingsSchema.shape.watchedFolder.catch(defaultSettings.watchedFolder),
  })
  .catch(() => ({ ...defaultSettings }));

export interface SettingsStore {
  read(): Promise<Settings>;
  /** Validates the merged settings, writes them and answers them; throws a ZodError on bad input. */
  update(change: Partial<Settings>): Promise<Settings>;
}

export function createSettingsStore(directory: string): SettingsStore {
  const file = join(directory, settingsFileName);
  // Updates run one after another, so two quick changes never overwrite each other.
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<Settings> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isMissingFile(error)) return { ...defaultSettings };
      throw error;
    }
    return storedSettingsSchema.parse(parseJson(text));
  }

  async function write(settings: Settings): Promise<void> {
    await mkdir(directory, { recursive: true });
    // Written beside the file and renamed over it, so a crash never leaves half a file.
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, 'utf8');
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  function update(change: Partial<Settings>): Promise<Settings> {
    const next = queue.then(async () => {
      const settings = settingsSchema.parse({ ...(await read()), ...change });
      await write(settings);
      return settings;
    });
    queue = next.catch(() => undefined);
    return next;
  }

  return { read, update };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
