import { z } from 'zod';
import { documentCategories } from '../../domain/enums';
import { fieldMax } from '../../domain/limits';
import { calendarDate, emailAddress, idOf, timestamp } from './fields';
import { ownerProofFields } from './owner-proof';

// Shared access: an investor lets another person (an accountant, a spouse, a family
// office) see chosen documents, view and download only. The sharer is the "owner" of a share,
// the person shared with its "delegate". A share never reaches further than the owner's own
// access at the moment of each read: it follows the firm's rules for the owner.

/**
 * What a share covers.
 * - Personal documents: all of the owner's, only some categories (tax only…), or none.
 * - Property documents: those of all the owner's properties (today's and tomorrow's, with the
 *   firm's General documents), only chosen properties (still only while the owner has access to
 *   each), or none.
 * At least one of the two is not 'none'.
 */
export const personalScopes = ['all', 'categories', 'none'] as const;
export type PersonalScope = (typeof personalScopes)[number];
export const propertyScopes = ['all', 'properties', 'none'] as const;
export type PropertyScope = (typeof propertyScopes)[number];

const shareScopeFields = {
  personalScope: z.enum(personalScopes, { error: 'Please choose which personal documents to share.' }),
  /** With 'categories': the categories shared (at least one). Otherwise empty. */
  categories: z.array(z.enum(documentCategories, { error: 'Please choose a document category.' })).max(documentCategories.length),
  propertyScope: z.enum(propertyScopes, { error: 'Please choose which property documents to share.' }),
  /** With 'properties': the owner's properties shared (at least one). Otherwise empty. */
  propertyIds: z.array(idOf('property')).max(1000),
};

function scopeIsWhole(
  share: { personalScope: PersonalScope; categories: unknown[]; propertyScope: PropertyScope; propertyIds: unknown[] },
  ctx: z.RefinementCtx,
) {
  if (share.personalScope === 'none' && share.propertyScope === 'none') {
    ctx.addIssue({ code: 'custom', message: 'Please choose at least one kind of document to share.', path: ['personalScope'] });
  }
  if (share.personalScope === 'categories' && share.categories.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Please choose at least one category of personal documents.', path: ['categories'] });
  }
  if (share.propertyScope === 'properties' && share.propertyIds.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Please choose at least one property.', path: ['propertyIds'] });
  }
}

/** Where a share stands. 'invited': the delegate has not chosen a password yet. */
export const shareStatuses = ['invited', 'active', 'expired'] as const;
export type ShareStatus = (typeof shareStatuses)[number];

/** A share as its owner sees it in Manage Profile. Revoked and ended shares are not listed. */
export const outgoingShare = z.object({
  id: z.number().int().positive(),
  delegateEmail: z.string(),
  /** The delegate's name once they have one (an existing account, or after the welcome). */
  delegateName: z.string().nullable(),
  ...shareScopeFields,
  /** The properties of 'properties', with their names, for showing. */
  properties: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
  /** The last day the delegate may read (in the firm's time zone), or null for no end. */
  endsOn: calendarDate.nullable(),
  /** Whether the delegate gets the new-document e-mails for what the share covers. */
  notify: z.boolean(),
  status: z.enum(shareStatuses),
  createdAt: timestamp,
});
export type OutgoingShare = z.infer<typeof outgoingShare>;

/**
 * GET /api/investor/shares: the caller's shares, whether the firm allows sharing, and the
 * caller's own properties (what 'properties' may choose from), by name.
 */
export const outgoingSharesAnswer = z.object({
  sharingAllowed: z.boolean(),
  properties: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
  shares: z.array(outgoingShare),
});
export type OutgoingSharesAnswer = z.infer<typeof outgoingSharesAnswer>;

/**
 * POST /api/investor/shares/create. Giving someone sight of K-1s protects as much as the account
 * itself, so it asks the owner's proof (password, or a second-step code), as changing the e-mail or the password does.
 * An address that is the caller's own is refused; an address already shared with replaces nothing
 * (409 with a sentence: revoke it first).
 */
export const createShareBody = z
  .object({
    email: emailAddress(),
    ...shareScopeFields,
    endsOn: calendarDate.nullish().transform((value) => value ?? null),
    notify: z.boolean().default(false),
    /** An optional line for the e-mail to the delegate. */
    note: z.string().trim().max(fieldMax.message, `The note must be ${fieldMax.message} characters or fewer.`).optional(),
    ...ownerProofFields,
  })
  .superRefine(scopeIsWhole);
export type CreateShareBody = z.input<typeof createShareBody>;

/** What creating a share did: a sentence and the share. */
export const createShareAnswer = z.object({ message: z.string(), share: outgoingShare });
export type CreateShareAnswer = z.infer<typeof createShareAnswer>;

/** POST /api/investor/shares/revoke (the owner) and POST /api/admin/end-share (an administrator). */
export const endShareBody = z.object({ shareId: idOf('share') });
export type EndShareBody = z.infer<typeof endShareBody>;

/** An investor who shared with the caller, for the portal's switch between whose documents. */
export const incomingShare = z.object({
  id: z.number().int().positive(),
  /** The owner's user id: the `onBehalfOf` of the document reads through this share. */
  ownerId: z.number().int().positive(),
  ownerName: z.string(),
  ownerEntity: z.string().nullable(),
  ...shareScopeFields,
  endsOn: calendarDate.nullable(),
});
export type IncomingShare = z.infer<typeof incomingShare>;

/**
 * GET /api/investor/shared-with-me: the live shares given to the caller (not expired, not
 * revoked, from an active owner, sharing allowed), and whether the caller has documents of their
 * own ('My documents' is shown only then: an investor or staff, not a delegate-only account).
 */
export const incomingSharesAnswer = z.object({ ownDocuments: z.boolean(), shares: z.array(incomingShare) });
export type IncomingSharesAnswer = z.infer<typeof incomingSharesAnswer>;

/**
 * `?onBehalfOf=<owner id>` on the investor's documents list, categories, download and
 * download-version, and `onBehalfOf` in the document-link body: read through a live share from
 * that owner. Without it, a read is the caller's own. A read on behalf of someone who shares
 * nothing covering the document is answered like an unknown id (404).
 */
export const onBehalfOf = idOf('investor').optional();

/** GET /api/investor/documents and /categories: the caller's own, or through a share. */
export const investorDocumentsQuery = z.object({ onBehalfOf });
export type InvestorDocumentsQuery = z.infer<typeof investorDocumentsQuery>;

/** A share as an administrator sees it in the user editor. */
export const adminShare = z.object({
  id: z.number().int().positive(),
  ownerId: z.number().int().positive(),
  ownerEmail: z.string(),
  ownerName: z.string(),
  delegateId: z.number().int().positive(),
  delegateEmail: z.string(),
  delegateName: z.string().nullable(),
  ...shareScopeFields,
  endsOn: calendarDate.nullable(),
  notify: z.boolean(),
  status: z.enum(shareStatuses),
  createdAt: timestamp,
});
export type AdminShare = z.infer<typeof adminShare>;

/** GET /api/admin/user-shares?userId=: the shares a user gave and the shares given to them. */
export const adminUserSharesQuery = z.object({ userId: idOf('user') });
export const adminUserSharesAnswer = z.object({
  sharingAllowed: z.boolean(),
  given: z.array(adminShare),
  received: z.array(adminShare),
});
export type AdminUserSharesAnswer = z.infer<typeof adminUserSharesAnswer>;
