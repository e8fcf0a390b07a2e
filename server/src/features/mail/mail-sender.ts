import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from '../../logger';

/** One e-mail ready to leave: what an outbox row holds, plus its stable Message-ID. */
export interface OutgoingMail {
  /** `<…@host>`: the same on every attempt, so a mail client shows a resent copy once. */
  messageId: string;
  from: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

/** Hands an e-mail to SMTP, or writes it to a file; throws when it could not. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

function messageOptions(mail: OutgoingMail) {
  return {
    messageId: mail.messageId,
    from: mail.from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
}

/** Delivery over SMTP (`smtp://` or `smtps://` URL, with credentials in it when needed). */
export function smtpSender(url: string): MailSender {
  const transport = createTransport({
    url,
    // One connection reused for the messages the worker sends one after another (up to 100 each,
    // nodemailer's default), instead of a TCP and SMTP handshake per message: ten times the rate.
    // A connection the server dropped is replaced at the next message; close() ends them.
    pool: true,
    // Bounded, so that a hanging server delays a batch by a minute rather than for ever.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    async send(mail) {
      await transport.sendMail(messageOptions(mail));
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP_URL: each e-mail is written as an .eml file under `dir` (any mail client opens
 * it) and logged by message id and file name, so that nothing is lost and a developer finds
 * what would have been sent.
 */
export function emlFileSender(dir: string, logger: Logger): MailSender {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail(messageOptions(mail));
      const message = info.message;
      if (!Buffer.isBuffer(message)) throw new Error('The stream transport did not return the message as a buffer.');
      await mkdir(dir, { recursive: true });
      const id = mail.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9.-]+/g, '-');
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
      const file = path.join(dir, name);
      await writeFile(file, message);
      // The message id and the file find the e-mail; its recipient and Subject (which carries
      // investors' names) stay out of the log.
      logger.info(`E-mail ${mail.messageId} written to ${file} (SMTP_URL is not set).`);
    },
    close: () => transport.close(),
  };
}

/** SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
export function createMailSender(config: { smtpUrl: string | undefined; dataDir: string }, logger: Logger): MailSender {
  return config.smtpUrl ? smtpSender(config.smtpUrl) : emlFileSender(path.join(config.dataDir, 'mail'), logger);
}
