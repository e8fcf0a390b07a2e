import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAnswer, validateResetTokenAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';
import { freshAddress, recordingClient } from '../../test/test-client';
import { queuedMails } from '../../test/queued-mails';
import { renderEntryOf } from '../features/public-pages/page-renderer';
import { webDist } from '../server';
import { loggedPath } from './request-log';

const publicUrl = 'https://portal.everest.example';
const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const newPassword = 'Fresh-Passw0rd-4711!';

/**
 * Issue 33: reset links live an hour and welcome links a week, so whoever reads the server's log
 * must find neither. The spec's calls stay as they are (the token in validate-reset-token's path,
 * the portal's ?resetToken= page): the log names the route by its pattern and never writes a
 * query string.
 */
describe('secrets and the log', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let log = '';

  beforeAll(async () => {
    // The portal's page is served as in production: the web app's build.
    expect(existsSync(renderEntryOf(webDist)), 'build the web app first: pnpm --filter @everest/web build').toBe(true);
    server = await startTestServer({
      seed: true,
      webDist,
      env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl, LOG_LEVEL: 'debug' },
      logTo: { write: (line: string) => void (log += line) },
    });
    client = recordingClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const tokenFor = async (recipient: string) => {
    const text = (await queuedMails(server.services.orm.em.fork(), { recipient })).map((mail) => mail.text).join('\n');
    const token = linkPattern.exec(text)?.[1];
    if (!token) throw new Error(`no password link e-mailed to ${recipient}`);
    return token;
  };

  /** What the portal and a careless user do with a link: open the page, check it, use it, open it again. */
  async function followLink(email: string, token: string) {
    for (const page of [`/investor-services?resetToken=${token}`, `/Investor-Services/?resetToken=${token}`]) {
      const res = await server.api(page, { redirect: 'manual' });
      expect([200, 301], page).toContain(res.status);
      await res.arrayBuffer();
    }
    const validated = await client.call(`/api/investor/validate-reset-token/${token}`, { from: freshAddress() });
    expect(validateResetTokenAnswer.parse(validated.json).valid).toBe(true);
    // @koa/router matches paths in any letter case: so must the log's redaction.
    expect((await client.call(`/API/investor/Validate-Reset-Token/${token}`, { from: freshAddress() })).status).toBe(200);
    const reset = await client.call('/api/investor/reset-password', { body: { token, password: newPassword, confirmPassword: newPassword } });
    expect(reset.status, reset.text).toBe(200);
    const used = await client.call(`/api/investor/validate-reset-token/${token}`, { from: freshAddress() });
    expect(validateResetTokenAnswer.parse(used.json).valid).toBe(false);
    loginAnswer.parse((await client.call('/api/investor/login', { body: { email, password: newPassword }, from: freshAddress() })).json);
  }

  it('holds no reset or welcome token after a whole reset and a whole welcome flow', async () => {
    expect((await client.call('/api/investor/request-password-reset', { body: { email: 'investor@example.com' }, from: freshAddress() })).status).toBe(200);
    const resetToken = await tokenFor('investor@example.com');
    await followLink('investor@example.com', resetToken);

    const admin = await client.signIn('admin@example.com', undefined, freshAddress());
    const created = await client.call('/api/admin/create-user', {
      body: { name: 'Welcome Logged', email: 'welcome.logged@example.com', sendWelcomeEmail: true },
      token: admin,
    });
    expect(created.status, created.text).toBe(200);
    const welcomeToken = await tokenFor('welcome.logged@example.com');
    await followLink('welcome.logged@example.com', welcomeToken);

    // Lines are written when an answer's connection closes, a moment after the client has it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    for (const token of [resetToken, welcomeToken]) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(0, 16));
    }
    expect(log).not.toContain('resetToken');
    const checks = lines.map((line) => JSON.parse(line) as { path?: string }).filter((line) => /validate-reset-token/i.test(line.path ?? ''));
    expect(checks).toHaveLength(6);
    expect(new Set(checks.map((line) => line.path))).toEqual(new Set(['/api/investor/validate-reset-token/:token']));
  });

  it('logs a route with a secret in its path by its pattern, whatever follows or however it is cased', () => {
    expect(loggedPath('/api/investor/validate-reset-token/abc')).toBe('/api/investor/validate-reset-token/:token');
    expect(loggedPath('/api/investor/validate-reset-token/abc/more')).toBe('/api/investor/validate-reset-token/:token');
    expect(loggedPath('/api/Investor/VALIDATE-reset-token/abc')).toBe('/api/investor/validate-reset-token/:token');
    expect(loggedPath('/api/investor/download/12')).toBe('/api/investor/download/12');
    expect(loggedPath('/investor-services')).toBe('/investor-services');
  });
});
