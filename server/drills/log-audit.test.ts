import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webDist } from '../src/server';
import { auditLog, startLoggedServer, type LogAudit, type LoggedServer } from './log-audit';

/**
 * Issue 33's log audit, beside the headers audit: after whole reset and welcome flows the log
 * holds no token (gap 3), and text with a NUL is refused before any line could hold its values
 * (gap 6). `pnpm drill` prints the figures (log-audit.drill.ts).
 */
describe('the server log after secrets and bad text', () => {
  let logged: LoggedServer;
  let audit: LogAudit;
  beforeAll(async () => {
    expect(existsSync(webDist), 'build the web app first: pnpm --filter @everest/web build').toBe(true);
    logged = await startLoggedServer();
    audit = await auditLog(logged);
  }, 120_000);
  afterAll(async () => {
    await logged?.server.close();
  });

  it('follows a reset and two welcome links to the end, and sends a NUL to five routes', () => {
    expect(audit.linksFollowed).toBe(3);
    expect(audit.lines).toBeGreaterThan(20);
    expect(audit.nulRefused).toBe(audit.nulRequests);
    expect(audit.nulRequests).toBe(5);
  });

  it('finds no token, no resetToken and none of the values sent beside a NUL, and no error line', () => {
    expect(audit.leaks).toEqual([]);
    expect(audit.errorLines).toBe(0);
  });
});
