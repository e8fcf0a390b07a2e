import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContactBody } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';
import type { CaptchaProvider } from '../captcha/captcha-provider';
import { enqueueMail } from '../mail/outbox';
import { contactNotificationMail } from '../mail/templates';
import { rateLimiter, type RateLimit } from '../rate-limit/rate-limiter';
import { ContactMessage } from './contact-message.entity';

/** Per client address: a person writes once or twice; a script is stopped after five. */
export const contactRateLimit: RateLimit = { limit: 5, windowMs: 10 * 60_000 };

export const contactSent = publicMessages.contactSuccess.description;

export interface ContactDeps {
  captcha: CaptchaProvider;
  /** The investment team's address (CONTACT_EMAIL). */
  contactEmail: string;
}

/**
 * A visitor's message: counted against the rate limit, its captcha verified, then stored and
 * its e-mail to the investment team queued in one transaction, with the captcha solution spent
 * in that same transaction. The message is safe once this returns, whether SMTP is up or not.
 */
export async function receiveContactMessage(
  em: EntityManager,
  deps: ContactDeps,
  body: ContactBody,
  clientAddress: string,
): Promise<void> {
  // Before the captcha, so that a script cannot make us call Google (or verify) without limit;
  // outside the transaction, so that refused attempts count too.
  await rateLimiter.consume(
    em,
    `contact:ip:${clientAddress}`,
    contactRateLimit,
    'You have sent several messages in a short time.',
  );
  const pass = await deps.captcha.verify({ token: body.recaptchaToken, remoteIp: clientAddress });

  await em.transactional(async (tx) => {
    await pass.redeem(tx);
    const message = tx.create(ContactMessage, {
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      subject: body.subject,
      message: body.message,
      clientAddress: clientAddress.slice(0, 64),
    });
    // Flushed first for its id and time, which the e-mail quotes.
    await tx.flush();
    const mail = contactNotificationMail({ ...body, receivedAt: message.createdAt, reference: message.id });
    enqueueMail(tx, { ...mail, to: deps.contactEmail, replyTo: body.email });
  });
}
