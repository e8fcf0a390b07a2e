import { siteFacts } from '@everest/fixtures/site';
import { formatDateTime } from '@everest/core/domain';

// Every e-mail of the product in one branded layout: a navy header with the firm's name, the
// content, and a footer with the office address. Each has a plain-text part (what many mail
// clients show first, and what screen readers read best) with the same words as the HTML.
// Every value that did not come from us is escaped in the HTML; templates pass plain text only.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** One piece of an e-mail's content, rendered both as HTML and as plain text. */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** A button; its address is also written out, for clients that block links. */
  | { kind: 'button'; label: string; url: string }
  /** Label and value pairs, e.g. the fields of a contact message. */
  | { kind: 'fields'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  /** A text someone wrote, shown as written (line breaks kept). */
  | { kind: 'quote'; text: string };

export interface MailLayout {
  subject: string;
  /** The first line under the header, e.g. 'Hello Jane,'. */
  greeting?: string;
  blocks: MailBlock[];
  /** Small print above the footer, e.g. who to contact with questions. */
  note?: string;
}

const colours = {
  navy: '#131F2F',
  navyText: '#ffffff',
  gold: '#D4AF37',
  button: '#314E77',
  text: '#131F2F',
  muted: '#555555',
  page: '#f4f6f9',
  rule: '#e1e5eb',
};
const font = "'Segoe UI', Arial, Helvetica, sans-serif";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escaped, with line breaks kept as <br> (what a paragraph block does to its text). */
export function escapeLines(text: string): string {
  return escapeHtml(text).replace(/\r\n|\r|\n/g, '<br>');
}

/** A header value on one line: a line break in a subject would be folded or refused by SMTP. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

const office = siteFacts.office;
const officeLines = [
  siteFacts.firmName,
  office.street,
  `${office.city}, ${office.state} ${office.zipCode}`,
  `Phone ${office.phone} · Fax ${office.fax}`,
];

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;line-height:1.5">${escapeLines(block.text)}</p>`;
    case 'button': {
      const url = escapeHtml(block.url);
      return `<p style="margin:0 0 16px"><a href="${url}" style="display:inline-block;padding:10px 18px;background:${colours.button};color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600">${escapeHtml(block.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:${colours.muted}">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${url}</span></p>`;
    }
    case 'fields':
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse;width:100%">
${block.rows
  .map(
    ([label, value]) =>
      `<tr><td style="padding:6px 12px 6px 0;vertical-align:top;font-weight:600;white-space:nowrap">${escapeHtml(label)}</td><td style="padding:6px 0;vertical-align:top;word-break:break-word">${escapeLines(value)}</td></tr>`,
  )
  .join('\n')}
</table>`;
    case 'quote':
      return `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${colours.gold};background:${colours.page};line-height:1.5;white-space:pre-wrap;word-break:break-word">${escapeHtml(block.text)}</div>`;
  }
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'button':
      return `${block.label}: ${block.url}`;
    case 'fields':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'quote':
      return block.text
        .split(/\r\n|\r|\n/)
        .map((line) => `> ${line}`)
        .join('\n');
  }
}

/** Renders an e-mail in the firm's layout, as HTML and plain text. */
export function renderMail({ subject, greeting, blocks, note }: MailLayout): MailContent {
  const cleanSubject = oneLine(subject);
  const text = [
    ...(greeting ? [greeting] : []),
    ...blocks.map(blockText),
    ...(note ? [note] : []),
    ['--', ...officeLines].join('\n'),
  ].join('\n\n');

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(cleanSubject)}</title></head>
<body style="margin:0;padding:0;background:${colours.page};font-family:${font};color:${colours.text}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colours.page};padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:6px;overflow:hidden">
<tr><td style="background:${colours.navy};color:${colours.navyText};padding:20px 24px;font-size:20px;font-weight:600;border-bottom:3px solid ${colours.gold}">${escapeHtml(siteFacts.firmName)}</td></tr>
<tr><td style="padding:24px;font-size:15px">
${greeting ? `<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>\n` : ''}${blocks.map(blockHtml).join('\n')}
${note ? `<p style="margin:24px 0 0;font-size:13px;color:${colours.muted}">${escapeLines(note)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid ${colours.rule};font-size:12px;line-height:1.5;color:${colours.muted}">${officeLines.map(escapeHtml).join('<br>')}</td></tr>
</table>
</td></tr>
</table>
</body></html>`;
  return { subject: cleanSubject, text, html };
}

export interface ContactNotification {
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  message: string;
  receivedAt: Date;
  reference: number;
}

/** To the investment team: a visitor's message from the contact form; replying answers the visitor. */
export function contactNotificationMail(contact: ContactNotification): MailContent {
  const name = `${contact.firstName} ${contact.lastName}`;
  return renderMail({
    subject: `Website contact: ${contact.subject}`,
    blocks: [
      { kind: 'paragraph', text: `${name} sent a message through the contact form of the website.` },
      {
        kind: 'fields',
        rows: [
          ['Name', name],
          ['Email', contact.email],
          ['Subject', contact.subject],
          ['Received', `${formatDateTime(contact.receivedAt)} (Pacific time)`],
          ['Reference', `#${contact.reference}`],
        ],
      },
      { kind: 'quote', text: contact.message },
    ],
    note: `Reply to this e-mail to answer ${name} directly.`,
  });
}

// ---- Shared access ---------------------------------------------------------------

/** A share as its e-mails describe it: who shared, and what, in words. */
export interface ShareDescription {
  /** The investor's name (or entity, or e-mail), as `displayName` gives it. */
  ownerName: string;
  /** The investor's e-mail address, from their account: who shared is never only what they typed. */
  ownerEmail: string;
  /** One line each: 'Personal documents: Tax', 'Property documents: Sunset Terrace, Oak Manor'. */
  covers: string[];
  /** 'Until Apr 30, 2027', or null for no end. */
  until: string | null;
  /** The investor's own words for the e-mail, if any: shown as theirs, never as the firm's. */
  note: string | null;
}

/**
 * Text an investor wrote, made so that no mail client shows a link in it: schemes become `hxxp`,
 * and the dots of anything that reads as a host name or an address become `[.]`
 * ('hxxps://example[.]com'), as security teams quote addresses. An invitation goes out from the
 * firm's address, so a link in it would read as the firm's.
 */
export function defang(text: string): string {
  return text
    .replace(/\b(h)(?:tt|xx)(ps?)(:\/\/)/gi, (_match, h: string, ps: string, rest: string) => `${h}xx${ps}${rest}`)
    .replace(/\b(ftp|file|javascript|data|mailto)(:)/gi, '$1[:]')
    .replace(/([\p{L}\p{N}_-])\.(?=[\p{L}\p{N}_-])/gu, '$1[.]');
}

/** Who shared, from the account record: 'Margaret Chen, margaret.chen@example.com'. */
export function sharedBy(share: Pick<ShareDescription, 'ownerName' | 'ownerEmail'>): string {
  // The address is the account's own, confirmed by mail: only the name, which its owner typed, is defanged.
  const name = share.ownerName && share.ownerName !== share.ownerEmail ? `${defang(share.ownerName)}, ` : '';
  return `${name}${share.ownerEmail}`;
}

/** The one Subject of every share's e-mail: nothing an investor typed reaches it. */
export const shareMailSubject = 'Documents were shared with you on the Everest Properties investor portal';

function shareBlocks(share: ShareDescription): MailBlock[] {
  return [
    { kind: 'fields', rows: [['Shared by', sharedBy(share)], ...share.covers.map((line) => ['Shared', line] as const), ['Until', share.until ?? 'They stop sharing']] },
    ...(share.note
      ? [
          { kind: 'paragraph', text: 'They added this note. Everest Properties did not write it, and its links are not clickable:' } as const,
          { kind: 'quote', text: defang(share.note) } as const,
        ]
      : []),
    {
      kind: 'paragraph',
      text: 'You can view and download these documents; you cannot change anything. Everest Properties records every document you open.',
    },
  ];
}

const shareNote = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

/**
 * To someone without an account: an investor shared documents with them. The link sets their
 * password (the welcome flow's 7-day link); it is never a password.
 */
export function shareInvitationMail(share: ShareDescription, link: string, validDays: number): MailContent {
  return renderMail({
    subject: shareMailSubject,
    greeting: 'Hello,',
    blocks: [
      { kind: 'paragraph', text: 'An investor of Everest Properties has shared some of their documents with you.' },
      ...shareBlocks(share),
      {
        kind: 'paragraph',
        text: `To read them, choose your password with the link below. It works once, for the next ${validDays} days; after that, use 'Forgot your password?' on the sign-in page.`,
      },
      { kind: 'button', label: 'Choose your password', url: link },
    ],
    note: shareNote,
  });
}

/** To someone who already has an account: the share is added to it. */
export function shareAddedMail(share: ShareDescription, name: string, portalUrl: string): MailContent {
  return renderMail({
    subject: shareMailSubject,
    greeting: name ? `Hello ${name},` : 'Hello,',
    blocks: [
      {
        kind: 'paragraph',
        text: `An investor of Everest Properties has shared some of their documents with you. They are in your investor portal account: choose ${defang(share.ownerName)} at the top of your documents.`,
      },
      ...shareBlocks(share),
      { kind: 'button', label: 'Open the investor portal', url: portalUrl },
    ],
    note: shareNote,
  });
}
