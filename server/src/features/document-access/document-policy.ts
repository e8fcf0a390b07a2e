import type { EntityManager } from '@mikro-orm/postgresql';
import type { DocumentCategory } from '@everest/core/domain';
import type { PersonalScope, PropertyScope } from '@everest/core/contract';
import { timeZone } from '@everest/core/domain';
import { cacheTable } from '../../caches';
import type { NotifiedCache } from '../../db/notified-cache';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';

/**
 * Who may read which document. Every read path (the list, the preview, the download, the
 * document link, a version's download) takes its SQL condition from here, so the rules live in
 * one place:
 * - administrators read everything;
 * - a property document is readable by users with access to its property, and a document of
 *   the 'General' group (no property) by every signed-in user;
 * - a personal document only by the user it is assigned to.
 * Everest employees follow the investors' rules (DECISIONS.md).
 * The portal's list of personal documents is everyone's own, administrators' too: every
 * investor's tax papers, unlabelled, under 'Your Documents' would mislead; the administration
 * panel lists them with their investors.
 *
 * Shared access: a read `onBehalfOf` an investor goes through that investor's live
 * share with the caller (`readingAs`), and reaches only what the share covers of what the owner
 * may read at that moment: their personal documents by scope and category; documents of the
 * properties they have access to now ('all', or the chosen ones of 'properties'); 'General' only
 * with 'all'. A 'delegate' account (made by a share) reads nothing of its own, not even 'General'.
 */

/** A share the caller reads through, as found live by `readingAs`. */
export interface LiveShare {
  id: number;
  ownerId: number;
  ownerEmail: string;
  /** The share's last day ('YYYY-MM-DD' in the firm's time zone), or null for no end. */
  endsOn: string | null;
  personalScope: PersonalScope;
  categories: DocumentCategory[];
  propertyScope: PropertyScope;
  propertyIds: number[];
}

/** A piece of a WHERE clause with its parameters, as the read rules and the lists build them. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const nothing: SqlCondition = { sql: 'false', params: [] };

/**
 * A share is live when it is not revoked, its last day (`ends_on`, in the firm's time zone) has
 * not passed, and its owner is an active investor; `ALLOW_SHARING=false` turns them all off (the
 * caller's part). On `shares` aliased `s` joined to its owner `o`; one parameter, the time zone.
 */
export const liveShareSql = `s.revoked_at is null and (s.ends_on is null or s.ends_on >= (now() at time zone ?)::date)
  and o.is_active and o.role = 'user'`;
export const liveShareParams = [timeZone];

/**
 * The same liveness, inside each read's statement: a share revoked (or its owner deactivated)
 * between `readingAs` and the read itself still reads nothing.
 */
function stillLive(share: LiveShare): SqlCondition {
  return {
    sql: `exists (select 1 from shares s join users o on o.id = s.owner_id where s.id = ? and ${liveShareSql})`,
    params: [share.id, ...liveShareParams],
  };
}

const and = (a: SqlCondition, b: SqlCondition): SqlCondition => ({ sql: `(${a.sql}) and ${b.sql}`, params: [...a.params, ...b.params] });

/**
 * `d.property_id` is one of `userId`'s properties now, or 'General' when `general`. As
 * `= any(array(…))`: the properties are read once and the OR becomes two index scans (a bitmap
 * OR); an EXISTS per row read every property document of the firm, 41 ms for an investor's list
 * at 100,000 documents instead of 0.8 ms.
 */
function ownProperties(userId: number, general: boolean): SqlCondition {
  const access = 'd.property_id = any (array(select pa.property_id from property_access pa where pa.user_id = ?))';
  return { sql: general ? `(d.property_id is null or ${access})` : `(d.property_id is not null and ${access})`, params: [userId] };
}

export const documentPolicy = {
  /**
   * Condition on `property_documents` aliased `d`, with its parameters. It reads `d.property_id`
   * alone: the investors' list asks it of each property group, not of each document
   * (documents.service.ts), so a rule on any other column belongs elsewhere.
   */
  propertyDocuments(user: SessionUser, share: LiveShare | null = null): SqlCondition {
    if (share) {
      if (share.propertyScope === 'none') return nothing;
      if (share.propertyScope === 'all') return and(ownProperties(share.ownerId, true), stillLive(share));
      const chosen = { sql: 'd.property_id = any(?::int[])', params: [`{${share.propertyIds.join(',')}}`] };
      return and(and(chosen, ownProperties(share.ownerId, false)), stillLive(share));
    }
    if (user.role === 'administrator') return { sql: 'true', params: [] };
    if (user.role === 'delegate') return nothing;
    return ownProperties(user.id, true);
  },

  /** Condition on `user_documents` aliased `d`, with its parameters. */
  personalDocuments(user: SessionUser, share: LiveShare | null = null): SqlCondition {
    if (share) return documentPolicy.ownPersonalDocuments(user, share);
    if (user.role === 'administrator') return { sql: 'true', params: [] };
    return documentPolicy.ownPersonalDocuments(user);
  },

  /** The same, for the portal's list: the caller's own documents, whatever the role (or the owner's, through a share). */
  ownPersonalDocuments(user: SessionUser, share: LiveShare | null = null): SqlCondition {
    if (share) {
      if (share.personalScope === 'none') return nothing;
      const owner = { sql: 'd.user_id = ?', params: [share.ownerId] };
      const scoped =
        share.personalScope === 'all'
          ? owner
          : and(owner, { sql: 'd.document_category = any(?::text[])', params: [`{${share.categories.join(',')}}`] });
      return and(scoped, stillLive(share));
    }
    if (user.role === 'delegate') return nothing;
    return { sql: 'd.user_id = ?', params: [user.id] };
  },
};

/** Live shares by owner and delegate, absent ones too (cacheTable.liveShares). */
export type LiveShares = NotifiedCache<LiveShare | null>;

/** The answer to a read on behalf of someone who shares nothing live with the caller. */
export const notSharedMessage = 'This document does not exist or is not available to you.';

/** What `readingAs` reads the live shares by: whether sharing is on (ALLOW_SHARING), and the cache. */
export interface Sharing {
  allowSharing: boolean;
  liveShares: LiveShares;
}

/**
 * Whose documents a read is: the caller's own (no `onBehalfOf`), or those of the investor
 * `onBehalfOf` through their live share with the caller. No live share (none, revoked, ended,
 * expired, the owner deactivated or no longer an investor, sharing off) answers 404 like an
 * unknown document, so a caller learns nothing of who shares with whom.
 */
export async function readingAs(
  em: EntityManager,
  sharing: Sharing,
  user: SessionUser,
  onBehalfOf: number | undefined,
  notFound = notSharedMessage,
): Promise<LiveShare | null> {
  const known = readingAsKnown(sharing, user, onBehalfOf);
  if (known !== undefined) return known;
  // Defined: readingAsKnown decides every read of the caller's own documents.
  const owner = onBehalfOf as number;
  const share = sharing.allowSharing ? await sharing.liveShares.get(cacheTable.liveShares.key(owner, user.id), () => findLiveShare(em, owner, user.id)) : null;
  if (!isOpen(share)) throw new HttpError(404, notFound);
  return share;
}

/**
 * `readingAs` from memory alone, for the answers given below Koa (as SessionCheck.cached decides
 * a session): null for the caller's own documents, the share for a live one kept in the live
 * shares cache, undefined for anything else (sharing off, no share, one not in memory), which
 * `readingAs` decides, with its refusal.
 */
export function readingAsKnown(sharing: Sharing, user: SessionUser, onBehalfOf: number | undefined): LiveShare | null | undefined {
  if (onBehalfOf === undefined) return null;
  if (!sharing.allowSharing) return undefined;
  const share = sharing.liveShares.ready(cacheTable.liveShares.key(onBehalfOf, user.id));
  return isOpen(share) ? share : undefined;
}

/** A kept share may have reached its end since: the date passing changes no row. */
function isOpen(share: LiveShare | null | undefined): share is LiveShare {
  return !!share && (share.endsOn === null || share.endsOn >= firmToday());
}

const firmDate = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
/** Today in the firm's time zone, 'YYYY-MM-DD', as `liveShareSql` compares `ends_on`. */
export const firmToday = () => firmDate.format(new Date());

/** The live share from `ownerId` to `delegateId`, with its scope, or null. */
export async function findLiveShare(em: EntityManager, ownerId: number, delegateId: number): Promise<LiveShare | null> {
  const [row] = await em.getConnection().execute<
    {
      id: number;
      owner_email: string;
      ends_on: string | null;
      personal_scope: PersonalScope;
      categories: DocumentCategory[];
      property_scope: PropertyScope;
      property_ids: number[];
    }[]
  >(
    `select s.id, o.email as owner_email, to_char(s.ends_on, 'YYYY-MM-DD') as ends_on, s.personal_scope, s.categories, s.property_scope,
            array(select sp.property_id from share_properties sp where sp.share_id = s.id order by sp.property_id) as property_ids
       from shares s join users o on o.id = s.owner_id
      where s.owner_id = ? and s.delegate_id = ? and ${liveShareSql}`,
    [ownerId, delegateId, ...liveShareParams],
  );
  if (!row) return null;
  return {
    id: row.id,
    ownerId,
    ownerEmail: row.owner_email,
    endsOn: row.ends_on,
    personalScope: row.personal_scope,
    categories: row.categories,
    propertyScope: row.property_scope,
    propertyIds: row.property_ids,
  };
}

/**
 * New-document e-mails to delegates: the delegates whose live share with `notify`
 * covers a document, by the read rule above restated on `shares s` (owner `o`, delegate `dl`),
 * for a property document `d` and for a personal document `d`. A delegate who may read the
 * document on their own is told by the investors' e-mail already and is left out here.
 * Parameters: `liveShareParams` only.
 */
const notifiedDelegate = `s.notify and dl.is_active and ${liveShareSql}`;
export const delegatesToNotify = {
  property: `join shares s on (
         (s.property_scope = 'all' and (d.property_id is null
           or exists (select 1 from property_access pa where pa.user_id = s.owner_id and pa.property_id = d.property_id)))
      or (s.property_scope = 'properties'
           and exists (select 1 from property_access pa where pa.user_id = s.owner_id and pa.property_id = d.property_id)
           and exists (select 1 from share_properties sp where sp.share_id = s.id and sp.property_id = d.property_id)))
     join users o on o.id = s.owner_id
     join users dl on dl.id = s.delegate_id
       and not (dl.role in ('user', 'everest_employee') and (d.property_id is null
         or exists (select 1 from property_access pa where pa.user_id = dl.id and pa.property_id = d.property_id)))
       and ${notifiedDelegate}`,
  personal: `join shares s on s.owner_id = d.user_id
       and (s.personal_scope = 'all' or (s.personal_scope = 'categories' and d.document_category = any(s.categories)))
     join users o on o.id = s.owner_id
     join users dl on dl.id = s.delegate_id and ${notifiedDelegate}`,
};
