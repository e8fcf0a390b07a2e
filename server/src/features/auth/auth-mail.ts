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

export const accountGuessedSubject = 'Someone is trying to sign in to your Everest Properties investor portal account';

/**
 * Sent once a day at most while many sign-ins to the account fail: the owner learns
 * of it, and what the firm does about it, without a word an attacker could use.
 */
export function accountGuessedMail(to: string, name: string): Mail {
  return accountMail(to, accountGuessedSubject, name, [
    {
      kind: 'paragraph',
      text: 'Many sign-ins to your investor portal account have just failed with a wrong password: someone may be trying to guess it. Your account is not locked, and your documents are safe as long as your password is not known: for a while, signing in asks for a short automatic check first.',
    },
    {
      kind: 'paragraph',
      text: 'If this was not you, make sure your password is not one you use anywhere else, change it in Manage Profile if in doubt, and consider turning on two-step sign-in there.',
    },
  ]);
}

/**
 * The code that signs in, with the password, to an account past its guess ceiling. Sent only when
 * the password given was right: whoever typed it knows the password.
 */
export function signInCodeMail(to: string, name: string, code: string, validMinutes: number): Mail {
  return accountMail(to, 'Your Everest Properties sign-in code', name, [
    { kind: 'paragraph', text: `Your sign-in code is ${code}. Enter it with your password on the sign-in page. It works once, for ${validMinutes} minutes.` },
    {
      kind: 'paragraph',
      text: 'We ask for it because many sign-ins to your account have failed lately. If you did not just sign in, someone knows your password: do not share this code with anyone, and change your password in Manage Profile now.',
    },
  ]);
}

/** Wrong second-step codes after the right password: the password is known to whoever typed them. */
export function wrongSecondStepMail(to: string, name: string): Mail {
  return accountMail(to, 'Your Everest Properties password was used with wrong sign-in codes', name, [
    {
      kind: 'paragraph',
      text: 'Someone signed in to your investor portal account with your password, then gave wrong two-step sign-in codes. Your second step stopped them.',
    },
    {
      kind: 'paragraph',
      text: 'If this was not you, your password is known to someone else: change it in Manage Profile now, and do not use it anywhere else.',
    },
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

// ---- Two-step sign-in -----------------------------------------------------------

export function secondStepOnMail(to: string, name: string): Mail {
  return accountMail(to, 'Two-step sign-in is now on for your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: 'Two-step sign-in was just turned on for your investor portal account: from now on, signing in asks for a code from your authenticator app after your password. Keep your backup codes somewhere safe; each works once if your phone is not at hand.',
    },
    notYou,
  ]);
}

/** An administrator removed it, usually because the user asked: the user still hears of it. */
export function secondStepRemovedMail(to: string, name: string): Mail {
  return accountMail(to, 'An administrator removed two-step sign-in from your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: 'An administrator of Everest Properties removed two-step sign-in from your investor portal account, so signing in now asks for your password only. You can turn it on again in Manage Profile.',
    },
    notYou,
  ]);
}

export function backupCodeUsedMail(to: string, name: string, codesLeft: number): Mail {
  const left = codesLeft === 1 ? '1 backup code is' : `${codesLeft} backup codes are`;
  return accountMail(to, 'A backup code was used to sign in to your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: `A backup code was just used to sign in to your investor portal account. ${left} left; you can make a new set in Manage Profile.`,
    },
    notYou,
  ]);
}

export function passkeyAddedMail(to: string, name: string, passkeyName: string): Mail {
  return accountMail(to, 'A passkey was added to your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: `A passkey named "${passkeyName}" was just added to your investor portal account: it can now be used as the second step when you sign in.`,
    },
    notYou,
  ]);
}

/** `secondStepLeft`: whether the account still signs in with two steps after the removal. */
export function passkeyRemovedMail(to: string, name: string, passkeyName: string, secondStepLeft: boolean): Mail {
  const after = secondStepLeft
    ? 'Your other second steps still work.'
    : 'It was your last second step: signing in now asks for your password only, and your backup codes no longer work.';
  return accountMail(to, 'A passkey was removed from your Everest Properties investor portal account', name, [
    { kind: 'paragraph', text: `The passkey named "${passkeyName}" was just removed from your investor portal account. ${after}` },
    notYou,
  ]);
}

// ---- Second steps removed one at a time, new backup codes -----------------------

/** `secondStepLeft`: whether the account still signs in with two steps after the removal. */
export function authenticatorRemovedMail(to: string, name: string, secondStepLeft: boolean): Mail {
  const after = secondStepLeft
    ? 'Your passkeys and backup codes still work.'
    : 'It was your last second step: signing in now asks for your password only, and your backup codes no longer work.';
  return accountMail(to, 'The authenticator app was removed from your Everest Properties investor portal account', name, [
    { kind: 'paragraph', text: `The authenticator app was just removed from your investor portal account: its codes no longer sign you in. ${after}` },
    notYou,
  ]);
}

/** A new set voids the old one: the owner must hear of it, in case it was not them. */
export function backupCodesRenewedMail(to: string, name: string): Mail {
  return accountMail(to, 'New backup codes were made for your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: 'A new set of backup codes was just made for your investor portal account. The codes you saved before no longer work.',
    },
    notYou,
  ]);
}
