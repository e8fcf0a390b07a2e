import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

// Without SMTP_URL the server's outbox worker writes each e-mail as an .eml file under
// DATA_DIR/mail; playwright.config.ts creates that DATA_DIR and hands it to the workers.
const mailDir = join(process.env.EVEREST_E2E_DATA_DIR ?? '', 'mail');

function mailFiles(): string[] {
  try {
    return readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}

/** The message with quoted-printable soft breaks and escapes undone. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The set-password link (welcome or reset) of an e-mail to `email`, waiting for the outbox to
 * deliver it. Each test uses addresses of its own, so the first match is the one it caused.
 */
export async function passwordLinkFromMail(email: string): Promise<string> {
  const to = new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const name of mailFiles()) {
          const text = decodeQuotedPrintable(readFileSync(join(mailDir, name), 'utf8'));
          if (!to.test(text)) continue;
          link = /https?:\/\/[^\s"<>]+\/investor-services\?resetToken=[A-Za-z0-9_-]+/.exec(text)?.[0];
          if (link) return true;
        }
        return false;
      },
      { message: `an e-mail with a password link to ${email} under ${mailDir}`, timeout: 20_000 },
    )
    .toBe(true);
  if (!link) throw new Error('unreachable');
  return link;
}
