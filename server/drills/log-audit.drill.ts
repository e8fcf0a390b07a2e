import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, formatLogAudit, startLoggedServer, type LoggedServer } from './log-audit';

// `pnpm drill`: the log audit with its figures (log-audit.test.ts asserts it).
describe('log audit drill', () => {
  let logged: LoggedServer;
  beforeAll(async () => {
    logged = await startLoggedServer();
  });
  afterAll(async () => {
    await logged?.server.close();
  });

  it('prints what the log holds after reset and welcome links and text with a NUL', async () => {
    const audit = await auditLog(logged);
    console.log(`\nLog audit\n${formatLogAudit(audit)}\n`);
    expect(audit.leaks).toEqual([]);
    expect(audit.errorLines).toBe(0);
    expect(audit.nulRefused).toBe(audit.nulRequests);
  });
});
