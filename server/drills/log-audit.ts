import { validateResetTokenAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { freshAddress, recordingClient } from '../test/test-client';
import { queuedMails } from '../test/queued-mails';
import { nulRefused } from '../src/http/route';
import { webDist } from '../src/server';

/**
 * The log audit, beside the headers audit: what a server's log holds after the flows
 * that carry secrets and the input that once put personal data in an error line.
 *
 * - Gap 3: a whole password reset, a whole welcome from create-user and one from a bulk import,
 *   each link opened as the portal and a careless user open it (the page with `?resetToken=`, the
 *   spec's validate-reset-token, the reset, the used link again): no token may be in any line.
 * - Gap 6: a NUL in the text of the contact form, the profile, the admin search, a bulk import row
 *   and a new user's name, each beside values of its own: every one refused with 400, and no
 *   line (an error line least of all) holds any of those values.
 */

export const logAuditUrl = 'https://portal.everest.example';
const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const newPassword = 'Log-Audit-Passw0rd!';

export interface LogAudit {
  lines: number;
  errorLines: number;
  /** Links followed to the end (reset, create-user welcome, bulk import welcome). */
  linksFollowed: number;
  /** Requests with a NUL in their text, and how many were refused with the sentence. */
  nulRequests: number;
  nulRefused: number;
  /** What the log must not hold and does: a token (or its first half), `resetToken`, a value sent beside a NUL. */
  leaks: string[];
}

export interface LoggedServer {
  server: TestServer;
  log: () => string;
}

/** A server as production logs (every request, at debug), its lines kept. */
export async function startLoggedServer(): Promise<LoggedServer> {
  let log = '';
  const server = await startTestServer({
    seed: true,
    webDist,
    env: { TRUST_PROXY: 'true', PUBLIC_URL: logAuditUrl, LOG_LEVEL: 'debug' },
    logTo: { write: (line: string) => void (log += line) },
  });
  return { server, log: () => log };
}

export async function auditLog({ server, log }: LoggedServer): Promise<LogAudit> {
  const client = recordingClient(server);
  const leaks: string[] = [];
  const tokens: string[] = [];
  const admin = await client.signIn('admin@example.com', demoPassword, freshAddress());

  const tokenFor = async (recipient: string) => {
    const text = (await queuedMails(server.services.orm.em.fork(), { recipient })).map((mail) => mail.text).join('\n');
    const token = linkPattern.exec(text)?.[1];
    if (!token) throw new Error(`no password link e-mailed to ${recipient}`);
    tokens.push(token);
    return token;
  };
  /** The page with the link (and the link mistyped in case), its check, its use, and the check again. */
  const followLink = async (email: string) => {
    const token = await tokenFor(email);
    for (const page of [`/investor-services?resetToken=${token}`, `/Investor-Services/?resetToken=${token}`]) await (await server.api(page, { redirect: 'manual' })).arrayBuffer();
    const valid = await client.call(`/api/investor/validate-reset-token/${token}`, { from: freshAddress() });
    if (!validateResetTokenAnswer.parse(valid.json).valid) throw new Error(`the link e-mailed to ${email} is not valid`);
    await client.call(`/API/investor/Validate-Reset-Token/${token}`, { from: freshAddress() });
    const reset = await client.call('/api/investor/reset-password', { body: { token, password: newPassword, confirmPassword: newPassword }, from: freshAddress() });
    if (reset.status !== 200) throw new Error(`reset-password with the link of ${email}: ${reset.status} ${reset.text}`);
    await client.call(`/api/investor/validate-reset-token/${token}`, { from: freshAddress() });
    await client.signIn(email, newPassword, freshAddress());
  };

  // Gap 3: a reset, a welcome by create-user and a welcome by a bulk import, each to its end.
  await client.call('/api/investor/request-password-reset', { body: { email: 'investor2@example.com' }, from: freshAddress() });
  await followLink('investor2@example.com');
  const welcomed = 'log.audit.welcome@example.com';
  await client.call('/api/admin/create-user', { body: { name: 'Logged Welcome', email: welcomed, sendWelcomeEmail: true }, token: admin });
  await followLink(welcomed);
  const imported = 'log.audit.import@example.com';
  await client.call('/api/admin/bulk-import-users', {
    body: { csvData: [{ line: 2, email: imported, firstName: 'Logged', lastName: 'Import' }], sendWelcomeEmails: true },
    token: admin,
  });
  await followLink(imported);

  // Gap 6: a NUL in text, each request with values of its own that must reach no line.
  const investor = await client.signIn('investor@example.com', demoPassword, freshAddress());
  const nul = [
    client.call('/api/contact', {
      body: {
        firstName: 'Visitor',
        lastName: 'Logauditname',
        email: 'logaudit.visitor@example.com',
        subject: 'Hello',
        message: 'My address is 77 Logaudit Lane\u0000',
        recaptchaToken: 'not-solved',
      },
      from: freshAddress(),
    }),
    client.call('/api/investor/update-profile', {
      body: { email: 'investor@example.com', firstName: 'Logauditfirst\u0000', streetAddress: '9 Logauditstreet' },
      token: investor,
    }),
    client.call('/api/admin/users?page=1&limit=10&search=Logauditsearch%00', { token: admin }),
    client.call('/api/admin/bulk-import-users', {
      body: { csvData: [{ email: 'logaudit.row@example.com', entity: 'Logauditentity\u0000' }] },
      token: admin,
    }),
    client.call('/api/admin/create-user', { body: { name: 'Logauditname\u0000', email: 'logaudit.user@example.com' }, token: admin }),
  ];
  const answers = await Promise.all(nul);
  const refused = answers.filter((res) => res.status === 400 && (res.json as { error?: unknown }).error === nulRefused).length;
  const values = ['Logauditname', 'logaudit.visitor', 'Logaudit Lane', 'Logauditfirst', 'Logauditstreet', 'Logauditsearch', 'logaudit.row', 'Logauditentity', 'logaudit.user'];

  // Lines are written when an answer's connection closes, a moment after the client has it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const text = log();
  for (const token of tokens) {
    if (text.includes(token)) leaks.push(`a token (${token.slice(0, 6)}…)`);
    else if (text.includes(token.slice(0, 16))) leaks.push(`the first half of a token (${token.slice(0, 6)}…)`);
  }
  if (text.includes('resetToken')) leaks.push('resetToken');
  for (const value of values) if (text.includes(value)) leaks.push(`the value "${value}" sent beside a NUL`);
  const lines = text.split('\n').filter(Boolean);
  return {
    lines: lines.length,
    errorLines: lines.filter((line) => /"level":"(error|fatal)"/.test(line)).length,
    linksFollowed: tokens.length,
    nulRequests: answers.length,
    nulRefused: refused,
    leaks,
  };
}

export function formatLogAudit(audit: LogAudit): string {
  return [
    `${audit.lines} log lines (LOG_LEVEL debug), ${audit.errorLines} at error level`,
    `${audit.linksFollowed} password links followed to the end (reset, create-user welcome, bulk import welcome), each opened twice, checked three times, used once`,
    `${audit.nulRequests} requests with a NUL in their text, ${audit.nulRefused} refused with 400 and the sentence`,
    `${audit.leaks.length} secrets or values found in the log${audit.leaks.length > 0 ? `: ${audit.leaks.join('; ')}` : ''}`,
  ].join('\n');
}
