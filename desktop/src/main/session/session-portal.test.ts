import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@everest/server/testing';
import { createDesktopSession } from './desktop-session';
import { createSessionPortal } from './session-portal';
import { createTokenVault } from './token-vault';

let server: TestServer;
let userData: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  userData = mkdtempSync(path.join(os.tmpdir(), 'everest-session-portal-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(userData, { recursive: true, force: true });
});

describe("the sync's portal on the app's session", () => {
  it('downloads a document for "already on the portal?" through the fetch main gives the session (net.fetch), not Node\'s', async () => {
    // Stands for Electron's net.fetch: the real fetch, each address written down.
    const fetched: string[] = [];
    const session = createDesktopSession({
      vault: createTokenVault(path.join(userData, 'session.bin'), null),
      initialServerUrl: server.url,
      fetch: (input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return globalThis.fetch(input, init);
      },
    });
    await session.signIn(server.url, 'admin@example.com', 'Everest@2025');
    const portal = createSessionPortal(session);

    const [document] = await portal.propertyDocuments();
    expect(document).toBeDefined();
    fetched.length = 0;
    const sha256 = await portal.documentSha256(document!.id);

    expect(fetched).toEqual([`${server.url}/api/investor/download/${document!.id}`]);
    const file = await globalThis.fetch(`${server.url}/api/investor/download/${document!.id}`, {
      headers: { Authorization: `Bearer ${session.token()}` },
    });
    expect(sha256).toBe(createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex'));
  });
});
