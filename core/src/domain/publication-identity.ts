// A publication's identity, which every publishing path shares: where a document goes (a
// property or one investor), what makes two publications the same content for the same
// destination, and what makes a new publication a correction of a document already there.

import type { DocumentCategory, Quarter } from './enums';

/** Who a document is published to: every reader of a property (or General), or one investor. */
export type Destination = { kind: 'property'; property: string } | { kind: 'investor'; email: string };

/** How people read names and e-mails: NFC (macOS writes 'é' as 'e' + accent), trimmed, any case. */
function comparable(text: string): string {
  return text.normalize('NFC').trim().toLowerCase();
}

/** 'property:heartland plaza' / 'investor:a@b.com' — NFC, trimmed, lower-cased. */
export function destinationKey(destination: Destination): string {
  return destination.kind === 'property'
    ? `property:${comparable(destination.property)}`
    : `investor:${comparable(destination.email)}`;
}

/**
 * A publication's identity: its content AND its destination so that the same bytes
 * for two properties are two documents, and a replace may only touch its own destination's.
 */
export function publicationKey(destination: Destination, sha256: string): string {
  return `${destinationKey(destination)}#${sha256.trim().toLowerCase()}`;
}

/**
 * What a publication is the same document as (a correction of it, its next version) rather than a
 * new document: the same destination, the same title (as people read it: NFC, trimmed, any case),
 * the same category (personal documents have one; property documents null) and the same period.
 * Accountants reuse a title every quarter ("Quarterly Distribution Statement"): a row of another
 * quarter is a new document, never a correction of the last one. Every path (the dry runs, the
 * server's uploads, the sync) decides with this one rule.
 */
export interface DocumentIdentity {
  title: string;
  category: DocumentCategory | null;
  year: number;
  quarter: Quarter;
}

/** The key of a document's identity under its owner (a destinationKey, or an investor's id). */
export function documentIdentityKey(owner: string | number, identity: DocumentIdentity): string {
  return [owner, comparable(identity.title), identity.category ?? '', identity.year, identity.quarter].join('\u0000');
}

/** True when both name the same document of one destination (see DocumentIdentity). */
export function isSameDocument(a: DocumentIdentity, b: DocumentIdentity): boolean {
  return documentIdentityKey('', a) === documentIdentityKey('', b);
}

/** A document already published, as a dry run names the one a row would correct. */
export interface PublishedIdentity extends DocumentIdentity {
  /** When its first version was published (ISO 8601). */
  firstPublishedAt: string;
  /** The document's id, where the caller knows it. */
  documentId?: number;
}
