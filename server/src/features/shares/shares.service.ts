import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AdminShare,
  AdminUserSharesAnswer,
  IncomingSharesAnswer,
  OutgoingShare,
  OutgoingSharesAnswer,
  PersonalScope,
  PropertyScope,
  ShareStatus,
} from '@everest/core/contract';
import { displayName, timeZone, type DocumentCategory } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { liveShareParams, liveShareSql } from '../document-access/document-policy';
import type { RateLimit } from '../rate-limit/rate-limiter';
import { User } from '../users/user.entity';

// Shared access, an investor letting a family office, an accountant or a lawyer read some of their
// documents: an investor's shares (Manage Profile), the shares given to the caller (the portal's
// switch), and the administrators' view; making and ending one are share-writes.service.ts. What a
// share lets its delegate read is decided in document-access/document-policy.ts, the one place of
// the read rules.

export const shareMessages = {
  investorsOnly: 'Only investors can share their documents. Please contact Investor Relations if you need someone to see documents.',
  sharingOff: 'Everest Properties has turned off sharing documents. Please contact Investor Relations.',
  ownAddress: 'This is your own e-mail address. Please enter the address of the person you want to share with.',
  alreadyShared: (email: string) => `You already share documents with ${email}. Revoke that share first, then share again to change what they see.`,
  notYourProperty: 'Please choose only properties whose documents you can see yourself.',
  endsInPast: 'The last day of sharing cannot be in the past.',
  notFound: 'This share does not exist or has already ended.',
  userNotFound: 'This user does not exist.',
  tooMany: 'You have shared documents with many people today. Please try again tomorrow, or contact Investor Relations.',
} as const;

/**
 * New shares an investor may make a day: each one e-mails an address the investor chose, from the
 * firm's address. A family office, an accountant, a lawyer and a spare; more is a phishing run.
 */
export const shareCreateLimit: RateLimit = { limit: 5, windowMs: 24 * 60 * 60_000 };

/** Shares are an investor's: other roles, delegate-only accounts included, are refused. */
export function requireInvestor(user: SessionUser): void {
  if (user.role !== 'user') throw new HttpError(403, shareMessages.investorsOnly);
}

// ---- Reading shares ---------------------------------------------------------------------------

interface ShareRow {
  id: number;
  owner_id: number;
  owner_email: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_entity: string;
  delegate_id: number;
  delegate_email: string;
  delegate_first_name: string;
  delegate_last_name: string;
  delegate_entity: string;
  personal_scope: PersonalScope;
  categories: DocumentCategory[];
  property_scope: PropertyScope;
  properties: { id: number; name: string }[];
  ends_on: string | null;
  notify: boolean;
  status: ShareStatus;
  created_at: string;
}

/**
 * Shares not revoked, with both people and the chosen properties' names. 'expired' once the last
 * day has passed in the firm's time zone; 'invited' until the delegate signs in after the share
 * was made (for a new account, once they have chosen a password), so that the owner's list says
 * the same for an address with an account as for one without.
 */
export async function shareRows(em: EntityManager, where: string, params: unknown[]): Promise<ShareRow[]> {
  return em.getConnection().execute<ShareRow[]>(
    `select s.id, s.owner_id, o.email as owner_email, o.first_name as owner_first_name, o.last_name as owner_last_name, o.entity as owner_entity,
            s.delegate_id, dl.email as delegate_email, dl.first_name as delegate_first_name, dl.last_name as delegate_last_name,
            dl.entity as delegate_entity, s.personal_scope, s.categories, s.property_scope, s.notify,
            to_char(s.ends_on, 'YYYY-MM-DD') as ends_on,
            to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
            case when s.ends_on < (now() at time zone ?)::date then 'expired'
                 when dl.last_login_at is null or dl.last_login_at < s.created_at then 'invited'
                 else 'active' end as status,
            coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.name, p.id)
                        from share_properties sp join properties p on p.id = sp.property_id where sp.share_id = s.id), '[]') as properties
       from shares s join users o on o.id = s.owner_id join users dl on dl.id = s.delegate_id
      where s.revoked_at is null and ${where}
      order by s.created_at desc, s.id desc`,
    [timeZone, ...params],
  );
}

const nameOf = (row: ShareRow, who: 'owner' | 'delegate') =>
  displayName({ firstName: row[`${who}_first_name`], lastName: row[`${who}_last_name`], entity: row[`${who}_entity`] });

const scopeOf = (row: ShareRow) => ({
  personalScope: row.personal_scope,
  categories: row.categories,
  propertyScope: row.property_scope,
  propertyIds: row.properties.map((p) => p.id),
});

export function toOutgoing(row: ShareRow): OutgoingShare {
  return {
    id: row.id,
    delegateEmail: row.delegate_email,
    // Only once they have come in: a name is never told to whoever merely typed an address.
    delegateName: row.status === 'invited' ? null : nameOf(row, 'delegate') || null,
    ...scopeOf(row),
    properties: row.properties,
    endsOn: row.ends_on,
    notify: row.notify,
    status: row.status,
    createdAt: row.created_at,
  };
}

function toAdminShare(row: ShareRow): AdminShare {
  return {
    id: row.id,
    ownerId: row.owner_id,
    ownerEmail: row.owner_email,
    ownerName: nameOf(row, 'owner') || row.owner_email,
    delegateId: row.delegate_id,
    delegateEmail: row.delegate_email,
    delegateName: nameOf(row, 'delegate') || null,
    ...scopeOf(row),
    endsOn: row.ends_on,
    notify: row.notify,
    status: row.status,
    createdAt: row.created_at,
  };
}

/** The caller's properties now, by name: what a share's 'properties' may choose from. */
export async function ownProperties(em: EntityManager, userId: number): Promise<{ id: number; name: string }[]> {
  return em
    .getConnection()
    .execute<{ id: number; name: string }[]>(
      'select p.id, p.name from property_access pa join properties p on p.id = pa.property_id where pa.user_id = ? order by p.name, p.id',
      [userId],
    );
}

export async function listOutgoingShares(em: EntityManager, config: Config, user: SessionUser): Promise<OutgoingSharesAnswer> {
  requireInvestor(user);
  const [properties, rows] = await Promise.all([ownProperties(em, user.id), shareRows(em, 's.owner_id = ?', [user.id])]);
  return { sharingAllowed: config.allowSharing, properties, shares: rows.map(toOutgoing) };
}

/** The live shares given to the caller: what the portal's switch offers. */
export async function listIncomingShares(em: EntityManager, config: Config, user: SessionUser): Promise<IncomingSharesAnswer> {
  const ownDocuments = user.role !== 'delegate';
  if (!config.allowSharing) return { ownDocuments, shares: [] };
  const rows = await em.getConnection().execute<
    (Pick<ShareRow, 'id' | 'owner_id' | 'owner_first_name' | 'owner_last_name' | 'owner_entity' | 'owner_email' | 'personal_scope' | 'categories' | 'property_scope' | 'ends_on'> & {
      property_ids: number[];
    })[]
  >(
    `select s.id, s.owner_id, o.first_name as owner_first_name, o.last_name as owner_last_name, o.entity as owner_entity, o.email as owner_email,
            s.personal_scope, s.categories, s.property_scope, to_char(s.ends_on, 'YYYY-MM-DD') as ends_on,
            array(select sp.property_id from share_properties sp where sp.share_id = s.id order by sp.property_id) as property_ids
       from shares s join users o on o.id = s.owner_id
      where s.delegate_id = ? and ${liveShareSql}
      order by lower(coalesce(nullif(o.last_name, ''), nullif(o.first_name, ''), o.entity, o.email)), s.id`,
    [user.id, ...liveShareParams],
  );
  return {
    ownDocuments,
    shares: rows.map((row) => ({
      id: row.id,
      ownerId: row.owner_id,
      ownerName: displayName({ firstName: row.owner_first_name, lastName: row.owner_last_name, entity: row.owner_entity }) || row.owner_email,
      ownerEntity: row.owner_entity.trim() || null,
      personalScope: row.personal_scope,
      categories: row.categories,
      propertyScope: row.property_scope,
      propertyIds: row.property_ids,
      endsOn: row.ends_on,
    })),
  };
}

export async function listUserShares(em: EntityManager, config: Config, userId: number): Promise<AdminUserSharesAnswer> {
  if ((await em.count(User, { id: userId })) === 0) throw new HttpError(404, shareMessages.userNotFound);
  const [given, received] = await Promise.all([shareRows(em, 's.owner_id = ?', [userId]), shareRows(em, 's.delegate_id = ?', [userId])]);
  return { sharingAllowed: config.allowSharing, given: given.map(toAdminShare), received: received.map(toAdminShare) };
}
