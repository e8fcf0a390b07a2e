import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenVault, keepsTokenOnDisk, type TokenCipher } from './token-vault';

// Electron's safeStorage cannot run here; a real AES-GCM cipher with a key of its own stands
// in for the operating system's keyring.
function aesCipher(key = randomBytes(32)): TokenCipher {
  return {
    encrypt(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), data]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function vaultFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-vault-'));
  dirs.push(dir);
  return path.join(dir, 'session.bin');
}

describe('where the session token is kept', () => {
  it.each([
    [{ platform: 'darwin', encryptionAvailable: true }, true],
    [{ platform: 'win32', encryptionAvailable: true }, true],
    [{ platform: 'linux', encryptionAvailable: true, linuxBackend: 'gnome_libsecret' }, true],
    [{ platform: 'linux', encryptionAvailable: true, linuxBackend: 'kwallet5' }, true],
    // Linux without a keyring: Chromium's fixed key is no protection.
    [{ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' }, false],
    [{ platform: 'linux', encryptionAvailable: true, linuxBackend: 'unknown' }, false],
    [{ platform: 'linux', encryptionAvailable: false, linuxBackend: 'gnome_libsecret' }, false],
    [{ platform: 'darwin', encryptionAvailable: false }, false],
  ] as const)('%j keeps it on disk: %s', (system, expected) => {
    expect(keepsTokenOnDisk(system)).toBe(expected);
  });
});

describe('the token vault', () => {
  it('keeps the session encrypted on disk with a keyring, and forgets it on sign-out', async () => {
    const file = vaultFile();
    const cipher = aesCipher();
    const vault = createTokenVault(file, cipher);
    await vault.save({ serverUrl: 'https://portal.example.com', token: 'secret-token-123' });
    expect(readFileSync(file).includes(Buffer.from('secret-token-123'))).toBe(false);
    // A later start reads it back.
    expect(await createTokenVault(file, cipher).load()).toEqual({ serverUrl: 'https://portal.example.com', token: 'secret-token-123' });
    await vault.forget();
    expect(existsSync(file)).toBe(false);
    expect(await vault.load()).toBeNull();
  });

  it('reads a file another keyring wrote, or garbage, as no session', async () => {
    const file = vaultFile();
    await createTokenVault(file, aesCipher()).save({ serverUrl: 'https://a.example.com', token: 't' });
    expect(await createTokenVault(file, aesCipher()).load()).toBeNull();
    writeFileSync(file, 'not encrypted at all');
    expect(await createTokenVault(file, aesCipher()).load()).toBeNull();
  });

  it('without a keyring writes nothing and removes a session left from when there was one', async () => {
    const file = vaultFile();
    await createTokenVault(file, aesCipher()).save({ serverUrl: 'https://a.example.com', token: 't' });
    const memoryOnly = createTokenVault(file, null);
    expect(memoryOnly.remembers).toBe(false);
    expect(await memoryOnly.load()).toBeNull();
    expect(existsSync(file)).toBe(false);
    await memoryOnly.save({ serverUrl: 'https://a.example.com', token: 't' });
    expect(existsSync(file)).toBe(false);
  });
});
