import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { freshAddress, recordingClient } from '../../../test/test-client';
import { queuedMails } from '../../../test/queued-mails';

/**
 * Without SMTP_URL each e-mail becomes an .eml file: its log line names the message and the file,
 * never who it is for or its Subject, which carries investors' names (ASVS 16.2).
 */
describe('the log of e-mails written to files', () => {
  let server: TestServer;
  let log = '';

  beforeAll(async () => {
    server = await startTestServer({
      seed: true,
      env: { TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
      logTo: { write: (line: string) => void (log += line) },
    });
  });
  afterAll(() => server.close());

  it('names the message id and the file, not the recipient or the Subject', async () => {
    const client = recordingClient(server);
    const res = await client.call('/api/investor/request-password-reset', { body: { email: 'investor@example.com' }, from: freshAddress() });
    expect(res.status).toBe(200);
    await server.services.outbox.runOnce();
    const [file] = (await readdir(path.join(server.services.config.dataDir, 'mail'))).filter((name) => name.endsWith('.eml'));
    if (!file) throw new Error('no .eml file was written');
    const line = log.split('\n').find((entry) => entry.includes(file));
    expect(line, log).toBeDefined();
    expect(line).toMatch(/<outbox-\d+-\d+@[^>]+>/);
    const [mail] = await queuedMails(server.services.orm.em.fork(), { recipient: 'investor@example.com' });
    expect(mail?.subject).toBeTruthy();
    expect(log).not.toContain(mail?.subject);
    expect(log).not.toContain('investor@example.com');
    expect(log).not.toMatch(/James|Carter/);
  });
});
