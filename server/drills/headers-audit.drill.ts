import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness';
import { auditHeaders, formatAudit, startAuditedServer } from './headers-audit';

// `pnpm drill`: the headers audit with its figures (headers-audit.test.ts asserts it).
describe('headers audit drill', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuditedServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prints how many answers were audited and which lack a header', async () => {
    const audited = await auditHeaders(server);
    console.log(`\nHeaders audit\n${formatAudit(audited)}\n`);
    expect(audited.filter((a) => a.missing.length > 0)).toEqual([]);
  });
});
