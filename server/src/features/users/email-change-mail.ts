import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail, type MailBlock } from '../mail/templates';

// The e-mails of a change of address asked for in Manage Profile, in the layout and
// words of the other account e-mails (auth/auth-mail.ts).

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

function accountMail(to: string, subject: string, name: string, blocks: MailBlock[]): Mail {
  return { to, ...renderMail({ subject, greeting: name ? `Hello ${name},` : 'Hello,', blocks, note }) };
}

const hours = (ms: number) => Math.round(ms / 3_600_000);
const days = (ms: number) => Math.round(ms / 86_400_000);

/**
 * To the new address: the link that makes it the account's address. No name and no old address:
 * whoever mistyped an address must not learn whose account it was.
 */
export function confirmNewEmailMail(to: string, link: string, validMs: number): Mail {
  return accountMail(to, 'Confirm the new e-mail address of your Everest Properties investor portal account', '', [
    {
      kind: 'paragraph',
      text: `Someone signed in to an Everest Properties investor portal account asked to use this e-mail address for it. Open the link below to confirm it: until then the account keeps its current address. The link works once, for the next ${hours(validMs)} hours.`,
    },
    { kind: 'button', label: 'Confirm this e-mail address', url: link },
    { kind: 'paragraph', text: 'If you did not ask for this, ignore this e-mail: nothing changes unless the link is opened.' },
  ]);
}

/** To the old address, at once: what was asked, and the way back. */
export function emailChangeRequestedMail(to: string, name: string, newEmail: string, undoLink: string, undoValidMs: number): Mail {
  return accountMail(to, 'A new e-mail address was asked for your Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: `Someone signed in to your investor portal account asked to change its e-mail address to ${newEmail}. The change takes effect only once that address confirms it; until then, sign-ins and password resets keep using this address.`,
    },
    {
      kind: 'paragraph',
      text: `If this was not you, undo it with the link below (it works for ${days(undoValidMs)} days, even after the change was confirmed): this address is kept or put back, every device is signed out, and we send you a link to choose a new password.`,
    },
    { kind: 'button', label: 'This was not me: undo the change', url: undoLink },
  ]);
}

/** To the old address, once the new one has confirmed: the undo link of the first e-mail still works. */
export function emailChangeConfirmedMail(to: string, name: string, newEmail: string, undoUntil: string): Mail {
  return accountMail(to, 'The e-mail address of your Everest Properties investor portal account was changed', name, [
    {
      kind: 'paragraph',
      text: `The e-mail address of your investor portal account is now ${newEmail}: it was confirmed from that address. Sign-ins and password resets now use it.`,
    },
    {
      kind: 'paragraph',
      text: `If this was not you, open the undo link of our earlier e-mail about this change before ${undoUntil} (Pacific Time), or contact Investor Relations right away.`,
    },
  ]);
}

/**
 * To an address another account already uses: nothing is changed and the asker is not told
 * (the profile answer is the same either way), so the address's owner hears of it instead.
 */
export function emailAlreadyUsedMail(to: string, name: string): Mail {
  return accountMail(to, 'Someone asked to use your e-mail address for an Everest Properties investor portal account', name, [
    {
      kind: 'paragraph',
      text: 'Someone signed in to another investor portal account asked to use this e-mail address for it. Nothing was changed: this address already belongs to your account, and stays with it.',
    },
    {
      kind: 'paragraph',
      text: 'If that was you, each account needs an address of its own; contact Investor Relations if you want two accounts merged. Otherwise you can ignore this e-mail.',
    },
  ]);
}

/** To the old address, after its undo link was used: a fresh password link, since the password may be known. */
export function emailChangeUndoneMail(to: string, name: string, resetLink: string, resetValidMinutes: number): Mail {
  return accountMail(to, 'The e-mail address of your Everest Properties investor portal account is back', name, [
    {
      kind: 'paragraph',
      text: 'The change of your investor portal account\'s e-mail address was undone: this address is the account\'s again, every device that was signed in has been signed out, and earlier password links no longer work.',
    },
    {
      kind: 'paragraph',
      text: `Whoever asked for the change may know your password. Please choose a new one with the link below; it works once, for the next ${resetValidMinutes} minutes.`,
    },
    { kind: 'button', label: 'Choose a new password', url: resetLink },
    {
      kind: 'paragraph',
      text: 'If signing in then asks for a code or a passkey you do not have, contact Investor Relations: they can remove a second step someone else turned on.',
    },
  ]);
}
