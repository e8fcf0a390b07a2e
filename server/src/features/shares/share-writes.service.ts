import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  CreateShareAnswer,
  createShareBody,
  MessageAnswer,
  PersonalScope,
  PropertyScope,
} from '@everest/core/contract';
import { displayName, documentCategoryLabels, type DocumentCategory } from '@everest/core/domain';
import type { z } from 'zod';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { recordAdminAction } from '../audit/admin-audit';
import { proveOwner } from '../auth/owner-proof';
import { activeSessionUser } from '../auth/session';
import { createPasswordLink, welcomeLinkLifetimeMs } from '../auth/password-links';
import { firmToday } from '../document-access/document-policy';
import { enqueueMail } from '../mail/outbox';
import { shareAddedMail, shareInvitationMail, type ShareDescription } from '../mail/templates';
import { rateLimiter } from '../rate-limit/rate-limiter';
import { User, type IUser } from '../users/user.entity';
import { Share, ShareProperty } from './share.entity';
import { ownProperties, requireInvestor, shareCreateLimit, shareMessages, shareRows, toOutgoing } from './shares.service';

// An investor's new share and its revocation, and the administrators' end of one: each audited,
// and e-mailed to whom it concerns.

type CreateShareInput = z.output<typeof createShareBody>;

// A calendar date as written, in words: formatted in UTC so that no time zone moves its day.
const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium' });
const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

function describeShare(
  { ownerName, ownerEmail }: { ownerName: string; ownerEmail: string },
  share: { personalScope: PersonalScope; categories: DocumentCategory[]; propertyScope: PropertyScope; endsOn: string | null },
  propertyNames: string[],
  note: string | undefined,
): ShareDescription {
  const covers: string[] = [];
  if (share.personalScope === 'all') covers.push('All of their personal documents');
  if (share.personalScope === 'categories') {
    covers.push(`Their personal documents of these kinds: ${share.categories.map((c) => documentCategoryLabels[c]).join(', ')}`);
  }
  if (share.propertyScope === 'all') covers.push("The documents of all of their properties, and Everest Properties' general documents");
  if (share.propertyScope === 'properties') covers.push(`The documents of these properties: ${propertyNames.join(', ')}`);
  return { ownerName, ownerEmail, covers, until: share.endsOn ? formatDay(share.endsOn) : null, note: note || null };
}

/**
 * Shares the caller's documents with `body.email`, after the owner's proof. An address without an
 * account gets a 'delegate' account (it reads only through shares) and the welcome flow's 7-day
 * link to choose a password; an existing account gets an e-mail that the share was added. The
 * answer and its words are the same either way, so the call tells nobody who has an account.
 */
export async function createShare(em: EntityManager, config: Config, sessionUser: SessionUser, body: CreateShareInput, address: string): Promise<CreateShareAnswer> {
  requireInvestor(sessionUser);
  if (!config.allowSharing) throw new HttpError(403, shareMessages.sharingOff);
  const owner = await activeSessionUser(em, sessionUser);
  if (body.email === owner.email) throw new HttpError(400, shareMessages.ownAddress);
  if (body.endsOn !== null && body.endsOn < firmToday()) throw new HttpError(400, shareMessages.endsInPast);
  await refuseSharedAgain(em, owner.id, body.email);

  const categories = body.personalScope === 'categories' ? [...new Set(body.categories)] : [];
  const propertyIds = body.propertyScope === 'properties' ? [...new Set(body.propertyIds)] : [];
  const mine = new Map((await ownProperties(em, owner.id)).map((p) => [p.id, p.name]));
  if (propertyIds.some((id) => !mine.has(id))) throw new HttpError(400, shareMessages.notYourProperty);

  await proveOwner(em, config, owner, { currentPassword: body.currentPassword, code: body.code }, address);
  await rateLimiter.consume(em, `share-create:user:${owner.id}`, shareCreateLimit, shareMessages.tooMany);

  const ownerName = displayName(owner) || owner.email;
  const description = describeShare({ ownerName, ownerEmail: owner.email }, { ...body, categories }, propertyIds.map((id) => mine.get(id) ?? ''), body.note);
  const shareId = await em
    .transactional(async (tx) => {
      let delegate: IUser | null = await tx.findOne(User, { email: body.email });
      const created = delegate === null;
      if (!delegate) {
        // No password: the welcome link chooses one (an empty hash never signs in).
        delegate = tx.create(User, { email: body.email, passwordHash: '', role: 'delegate' });
        await tx.flush();
      }
      const share = tx.create(Share, {
        owner: owner.id,
        delegate,
        personalScope: body.personalScope,
        categories,
        propertyScope: body.propertyScope,
        endsOn: body.endsOn,
        notify: body.notify,
      });
      for (const property of propertyIds) tx.create(ShareProperty, { share, property });
      await tx.flush();
      // An account with no password yet (an earlier share's, or an import's) gets a link too.
      if (created || delegate.passwordHash === '') {
        const link = createPasswordLink(tx, config, delegate, welcomeLinkLifetimeMs);
        enqueueMail(tx, { to: delegate.email, ...shareInvitationMail(description, link, welcomeLinkLifetimeMs / 86_400_000) });
      } else {
        enqueueMail(tx, { to: delegate.email, ...shareAddedMail(description, displayName(delegate), `${config.publicUrl}/investor-services`) });
      }
      recordAdminAction(tx, sessionUser, address, {
        action: 'create-share',
        subject: { type: 'share', id: share.id, label: `${owner.email} → ${delegate.email}` },
        after: {
          owner: owner.email,
          delegate: delegate.email,
          delegateAccountCreated: created,
          personalScope: body.personalScope,
          categories,
          propertyScope: body.propertyScope,
          properties: propertyIds.map((id) => mine.get(id)),
          endsOn: body.endsOn,
          notify: body.notify,
        },
      });
      return share.id;
    })
    .catch((error: unknown) => {
      // Two shares with the same address at once (the live-share index), or two owners making
      // its account at once (the e-mail's): the one that lost may simply be sent again.
      if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, shareMessages.alreadyShared(body.email));
      throw error;
    });

  const [row] = await shareRows(em, 's.id = ?', [shareId]);
  if (!row) throw new HttpError(404, shareMessages.notFound);
  return {
    message: `Shared. We sent an e-mail to ${body.email} saying what you shared.`,
    share: toOutgoing(row),
  };
}

/** Refuses a second share with the same person before the proof is asked (its 409 says what to do). */
async function refuseSharedAgain(em: EntityManager, ownerId: number, email: string): Promise<void> {
  const [row] = await em
    .getConnection()
    .execute<unknown[]>('select 1 from shares s join users dl on dl.id = s.delegate_id where s.owner_id = ? and dl.email = ? and s.revoked_at is null', [
      ownerId,
      email,
    ]);
  if (row) throw new HttpError(409, shareMessages.alreadyShared(email));
}

/**
 * Ends a share: by its owner (`revoke-share`) or by an administrator (`end-share`). The delegate's
 * next request reads nothing through it; the row stays, with who ended it and when.
 */
async function endShareAs(
  em: EntityManager,
  actor: SessionUser,
  shareId: number,
  address: string,
  action: 'revoke-share' | 'end-share',
  ownerOnly: boolean,
): Promise<void> {
  await em.transactional(async (tx) => {
    const [row] = await tx.execute<{ owner_email: string; delegate_email: string }[]>(
      `update shares s set revoked_at = now(), revoked_by_id = ?
         from users o, users dl
        where s.id = ? and s.revoked_at is null and o.id = s.owner_id and dl.id = s.delegate_id ${ownerOnly ? 'and s.owner_id = ?' : ''}
        returning o.email as owner_email, dl.email as delegate_email`,
      ownerOnly ? [actor.id, shareId, actor.id] : [actor.id, shareId],
    );
    // Another investor's share answers as one that does not exist.
    if (!row) throw new HttpError(404, shareMessages.notFound);
    recordAdminAction(tx, actor, address, {
      action,
      subject: { type: 'share', id: shareId, label: `${row.owner_email} → ${row.delegate_email}` },
      before: { owner: row.owner_email, delegate: row.delegate_email },
    });
  });
}

export async function revokeShare(em: EntityManager, user: SessionUser, shareId: number, address: string): Promise<MessageAnswer> {
  requireInvestor(user);
  await endShareAs(em, user, shareId, address, 'revoke-share', true);
  return { message: 'The share is revoked: that person can no longer see your documents.' };
}

export async function endShare(em: EntityManager, admin: SessionUser, shareId: number, address: string): Promise<MessageAnswer> {
  await endShareAs(em, admin, shareId, address, 'end-share', false);
  return { message: 'The share is ended: the delegate can no longer see those documents.' };
}
