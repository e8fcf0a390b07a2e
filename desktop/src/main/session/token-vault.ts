import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * Whether the session token may be written to disk, encrypted by the operating system.
 * macOS (Keychain) and Windows (DPAPI) say so through `isEncryptionAvailable`. On Linux,
 * Electron's `basic_text` backend encrypts with a key written in Chromium's source, which is
 * no protection, and `unknown` means none was chosen: both count as no keyring, and the token
 * then lives in memory only (the administrator signs in at each start).
 */
export function keepsTokenOnDisk(system: {
  platform: NodeJS.Platform;
  encryptionAvailable: boolean;
  /** `safeStorage.getSelectedStorageBackend()`, asked on Linux only. */
  linuxBackend?: string;
}): boolean {
  if (!system.encryptionAvailable) return false;
  if (system.platform !== 'linux') return true;
  return system.linuxBackend !== undefined && !['basic_text', 'unknown'].includes(system.linuxBackend);
}

/** The operating system's encryption (Electron's safeStorage), passed in by the main process. */
export interface TokenCipher {
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

const storedSession = z.object({ serverUrl: z.string(), token: z.string().min(1) });
export type StoredSession = z.infer<typeof storedSession>;

export interface TokenVault {
  /** Whether a saved session outlives a restart. */
  readonly remembers: boolean;
  load(): Promise<StoredSession | null>;
  save(session: StoredSession): Promise<void>;
  forget(): Promise<void>;
}

/**
 * Keeps the session in `file`, encrypted with `cipher`; with no cipher (no real keyring) it
 * keeps nothing on disk and removes a file left from a time when there was one.
 */
export function createTokenVault(file: string, cipher: TokenCipher | null): TokenVault {
  async function forget(): Promise<void> {
    await rm(file, { force: true });
  }
  if (!cipher) {
    return { remembers: false, load: async () => (await forget(), null), save: async () => undefined, forget };
  }
  return {
    remembers: true,
    async load() {
      let data: Buffer;
      try {
        data = await readFile(file);
      } catch {
        return null;
      }
      try {
        // A file another keyring wrote, or one edited by hand, is no session.
        const parsed = storedSession.safeParse(JSON.parse(cipher.decrypt(data)));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async save(session) {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.tmp`;
      await writeFile(temporary, cipher.encrypt(JSON.stringify(session)), { mode: 0o600 });
      await rename(temporary, file);
    },
    forget,
  };
}
