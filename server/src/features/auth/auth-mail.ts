import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail, type MailBlock } from '../mail/templates';

// The account e-mails of the investor portal, in the firm's layout (mail/templates.ts).

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;
const notYou: MailBlock = {
  kind: 'paragraph',
  text: 'If you did not do this, please contact Investor Relations right away.',
};

function accountMail(to: string, subject: string, name: string, blocks: MailBlock[]): Mail {
  return { to, ...renderMail({ subject, greeting: name ? `Hello ${name},` : 'Hello,', blocks, note }) };
}

export function passwordResetMail(to: string, name: string, link: string, validMinutes: number): Mail {
  return accountMail(to, 'Reset your Everest Properties investor portal password', name, [
    {
      kind: 'paragraph',
      text: `We received a request to reset the password of your investor portal account. The link below works once, for the next ${validMinutes} minutes.`,
    },
    { kind: 'button', label: 'Choose a new password', url: link },
    { kind: 'paragraph', text: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.' },
  ]);
}

export function passwordResetDoneMail(to: string, name: string): Mail {
  return accountMail(to, 'Your Everest Properties investor portal password was reset', name, [
    {
      kind: 'paragraph',
      text: 'The password of your investor portal account was just reset, and every device that was signed in has been signed out.',
    },
    notYou,
  ]);
}

export function passwordChangedMail(to: string, name: string): Mail {
  return accountMail(to, 'Your Everest Properties investor portal password was changed', name, [
    {
      kind: 'paragraph',
      text: 'The password of your investor portal account was just changed, and other devices that were signed in have been signed out.',
    },
    notYou,
  ]);
}

/** Sent to the old address, so that a hijacked session cannot quietly take the account over. */
export function emailChangedMail(to: string, name: string, newEmail: string): Mail {
  return accountMail(to, 'The e-mail address of your Everest Properties investor portal account was changed', name, [
    {
      kind: 'paragraph',
      text: `The e-mail address of your investor portal account was changed to ${newEmail}. Sign-ins and password resets now use the new address.`,
    },
    notYou,
  ]);
}

/**
 * Sent when an administrator opens an account: a link to choose a password, never a password
 * (DECISIONS.md), so nothing that can sign in sits in a mailbox.
 */
export function welcomeMail(to: string, name: string, link: string, validDays: number): Mail {
  return accountMail(to, 'Welcome to the Everest Properties investor portal', name, [
    {
      kind: 'paragraph',
      text: 'An investor portal account has been opened for you at Everest Properties. There you can read the documents of your investments and your personal tax documents.',
    },
    {
      kind: 'paragraph',
      text: `To start, choose your password with the link below. It works once, for the next ${validDays} days; after that, use 'Forgot your password?' on the sign-in page.`,
    },
    { kind: 'button', label: 'Choose your password', url: link },
    { kind: 'paragraph', text: `Your sign-in e-mail address is ${to}.` },
  ]);
}
