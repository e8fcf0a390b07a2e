import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import pg from 'pg';

// playwright.config.ts creates the server's DATA_DIR and hands it to the workers in this variable.
// Without SMTP_URL the server's outbox worker writes each e-mail as an .eml file under DATA_DIR/mail.
const dataDir = process.env.EVEREST_E2E_DATA_DIR ?? '';
const mailDir = join(dataDir, 'mail');

/** A connection to the embedded PostgreSQL that the server started under DATA_DIR/postgres. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const pgDir = join(dataDir, 'postgres');
  const port = Number(readFileSync(join(pgDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = readFileSync(join(pgDir, 'pg.secret'), 'utf8').trim();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'everest' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The subjects of every e-mail queued for `email`. The outbox row is written in the transaction
 * of the action that caused it, so once the action has answered this count is final: no waiting.
 */
export async function queuedMailSubjects(email: string): Promise<string[]> {
  return withDatabase(async (db) => {
    const rows = await db.query<{ subject: string }>('select subject from outbox_messages where recipient = $1 order by id', [email]);
    return rows.rows.map((row) => row.subject);
  });
}

/** The body of an .eml file with quoted-printable soft breaks and escapes undone. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The names of the .eml files delivered so far (a test passes them on to look only at newer mail). */
export function deliveredMailFiles(): string[] {
  try {
    return readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}

/**
 * The decoded texts of the .eml files the outbox worker has written to `email`, newest first
 * (names start with the time of sending), leaving out the files named in `before`.
 */
export function deliveredMails(email: string, before: readonly string[] = []): string[] {
  const to = new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi');
  return deliveredMailFiles()
    .filter((name) => !before.includes(name))
    .sort()
    .reverse()
    .map((name) => decodeQuotedPrintable(readFileSync(join(mailDir, name), 'utf8')))
    .filter((text) => to.test(text));
}

/** Waits until the worker has delivered `count` e-mails to `email`, and answers them. */
export async function waitForMails(email: string, count: number): Promise<string[]> {
  await expect.poll(() => deliveredMails(email).length, { message: `${count} e-mail(s) to ${email} under ${mailDir}`, timeout: 20_000 }).toBe(count);
  return deliveredMails(email);
}

/**
 * The set-password link (welcome or reset) of the newest e-mail to `email` that is not among
 * `before` (see `deliveredMailFiles`), waiting for the outbox to deliver it.
 */
export async function passwordLinkFromMail(email: string, before: readonly string[] = []): Promise<string> {
  const linkIn = (text: string) => /https?:\/\/[^\s"<>]+\/investor-services\?resetToken=[A-Za-z0-9_-]+/.exec(text)?.[0];
  let link: string | undefined;
  await expect
    .poll(() => (link = deliveredMails(email, before).map(linkIn).find(Boolean)) !== undefined, {
      message: `an e-mail with a password link to ${email} under ${mailDir}`,
      timeout: 20_000,
    })
    .toBe(true);
  if (!link) throw new Error('unreachable');
  return link;
}
