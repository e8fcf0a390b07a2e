import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness';
import { webDist } from '../src/server';
import { auditHeaders, startAuditedServer, type Audited } from './headers-audit';

/**
 * Issue 22's headers audit: every route of the table, the public pages, static files and media,
 * each answer with CSP (frame-ancestors), nosniff, Referrer-Policy, COOP and HSTS (PUBLIC_URL is
 * https), and `no-store` whenever the request carried a session. `pnpm drill` prints the figures.
 */
describe('the headers of every answer', () => {
  let server: TestServer;
  let audited: Audited[];
  beforeAll(async () => {
    expect(existsSync(webDist), 'build the web app first: pnpm --filter @everest/web build').toBe(true);
    server = await startAuditedServer();
    audited = await auditHeaders(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('audits routes, pages, static files and media, with and without a session', () => {
    expect(audited.length).toBeGreaterThan(200);
    expect(audited.some((a) => a.what.startsWith('page '))).toBe(true);
    expect(audited.some((a) => a.what.startsWith('static '))).toBe(true);
    expect(audited.some((a) => a.what === 'media image')).toBe(true);
  });

  it('finds every header on every answer, and no-store on every answer to a session', () => {
    expect(audited.filter((a) => a.missing.length > 0).map((a) => `${a.what} (${a.status}): ${a.missing.join('; ')}`)).toEqual([]);
  });
});
