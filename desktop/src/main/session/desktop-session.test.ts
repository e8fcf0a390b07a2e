import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@everest/core/client';
import { startTestServer, type TestServer, totpCode } from '@everest/server/testing';
import { administratorWithTotp } from '../../../test/second-step-admin';
import { createDesktopSession, sessionMessages } from './desktop-session';
import { createTokenVault, type TokenCipher } from './token-vault';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };

// A real AES-GCM cipher stands for the keyring (Electron's safeStorage cannot run here).
function keyring(): TokenCipher {
  const key = randomBytes(32);
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

let server: TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function vaultFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-session-'));
  dirs.push(dir);
  return path.join(dir, 'session.bin');
}

async function profileStatus(token: string): Promise<number> {
  return (await fetch(`${server.url}/api/investor/profile`, { headers: { Authorization: `Bearer ${token}` } })).status;
}

describe('the desktop session', () => {
  it('signs in an administrator, and a later start with a keyring is signed in without asking', async () => {
    const file = vaultFile();
    const cipher = keyring();
    const first = createDesktopSession({ vault: createTokenVault(file, cipher), initialServerUrl: server.url });
    const state = await first.signIn(server.url, admin.email, admin.password);
    expect(state).toMatchObject({ signedIn: true, remembered: true, user: { email: admin.email, role: 'administrator' } });

    const restarted = createDesktopSession({ vault: createTokenVault(file, cipher), initialServerUrl: server.url });
    expect(await restarted.restore(server.url)).toMatchObject({ signedIn: true, user: { email: admin.email } });
    expect(restarted.token()).toBe(first.token());
  });

  it('without a keyring signs in for this run only', async () => {
    const file = vaultFile();
    const session = createDesktopSession({ vault: createTokenVault(file, null), initialServerUrl: server.url });
    expect(await session.signIn(server.url, admin.email, admin.password)).toMatchObject({ signedIn: true, remembered: false });
    const restarted = createDesktopSession({ vault: createTokenVault(file, null), initialServerUrl: server.url });
    expect(await restarted.restore(server.url)).toEqual({ signedIn: false, serverUrl: server.url });
  });

  it("refuses an investor, and closes the session the server opened for them", async () => {
    const session = createDesktopSession({ vault: createTokenVault(vaultFile(), null), initialServerUrl: server.url });
    await expect(session.signIn(server.url, 'investor@example.com', 'Everest@2025')).rejects.toThrow(sessionMessages.notAdministrator);
    expect(session.state().signedIn).toBe(false);
  });

  it('answers the server’s sentence for a wrong password', async () => {
    const session = createDesktopSession({ vault: createTokenVault(vaultFile(), null), initialServerUrl: server.url });
    const direct = await createApiClient({ baseUrl: server.url })
      .call('login', { body: { email: admin.email, password: 'wrong' } })
      .catch((error: unknown) => (error as Error).message);
    await expect(session.signIn(server.url, admin.email, 'wrong')).rejects.toThrow(direct as string);
  });

  it('signing out ends the token on the server and forgets it here', async () => {
    const file = vaultFile();
    const cipher = keyring();
    const session = createDesktopSession({ vault: createTokenVault(file, cipher), initialServerUrl: server.url });
    await session.signIn(server.url, admin.email, admin.password);
    const token = session.token()!;
    expect(await profileStatus(token)).toBe(200);
    expect(await session.signOut()).toEqual({ signedIn: false, serverUrl: server.url });
    expect(await profileStatus(token)).toBe(401);
    expect(await createTokenVault(file, cipher).load()).toBeNull();
  });

  it('does not send a kept token to another server', async () => {
    const file = vaultFile();
    const cipher = keyring();
    await createDesktopSession({ vault: createTokenVault(file, cipher), initialServerUrl: server.url }).signIn(server.url, admin.email, admin.password);
    const other = createDesktopSession({ vault: createTokenVault(file, cipher), initialServerUrl: 'https://other.example.com' });
    expect(await other.restore('https://other.example.com')).toEqual({ signedIn: false, serverUrl: 'https://other.example.com' });
  });

  it('asks an administrator with a second step for a code: a wrong one leaves the sign-in open, a right one signs in', async () => {
    const { email, secret } = await administratorWithTotp(server.url, admin);
    const file = vaultFile();
    const session = createDesktopSession({ vault: createTokenVault(file, keyring()), initialServerUrl: server.url });
    const asked = await session.signIn(server.url, email, admin.password);
    expect(asked).toEqual({ signedIn: false, serverUrl: server.url, secondStep: { methods: ['totp', 'backup-code'] } });
    expect(session.token()).toBeNull();
    // The mfaToken stays in main: nothing the renderer gets carries it.
    expect(JSON.stringify(asked)).not.toMatch(/mfa|token/i);

    await expect(session.verifySecondStep('000000')).rejects.toThrow('That code is not correct. Please try again.');
    expect(session.state()).toMatchObject({ secondStep: { methods: ['totp', 'backup-code'] } });
    const signedIn = await session.verifySecondStep(totpCode(secret, 1));
    expect(signedIn).toMatchObject({ signedIn: true, user: { email, role: 'administrator' } });
    expect(await profileStatus(session.token()!)).toBe(200);
  });

  it('goes back to the password when the sign-in waiting for its code is cancelled', async () => {
    const { email, secret } = await administratorWithTotp(server.url, admin);
    const session = createDesktopSession({ vault: createTokenVault(vaultFile(), null), initialServerUrl: server.url });
    await session.signIn(server.url, email, admin.password);
    expect(await session.signOut()).toEqual({ signedIn: false, serverUrl: server.url });
    await expect(session.verifySecondStep(totpCode(secret, 1))).rejects.toThrow(sessionMessages.signInAgain);
  });
});

