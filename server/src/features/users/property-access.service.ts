import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminUserPropertiesAnswer, AssignPropertyBody, MessageAnswer, RemovePropertyBody } from '@everest/core/contract';
import { displayName } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { recordAdminAction } from '../audit/admin-audit';
import { Property } from '../properties/property.entity';
import { investorProperties, notInvestorRelations, userById, type AdminCall } from './admin-users.service';
import { PropertyAccess } from './property-access.entity';

// Which investor-relations properties a user may see: the list of every user's access, and an
// administrator's grant and removal of one property, each audited.

/** Every user's access, by property name. */
export async function listUserProperties(em: EntityManager): Promise<AdminUserPropertiesAnswer> {
  const rows = await em.execute<{ user_id: number; name: string }[]>(
    'select a.user_id, p.name from property_access a join properties p on p.id = a.property_id order by a.user_id, p.name',
  );
  return { userProperties: rows.map((row) => ({ userId: row.user_id, property: row.name })) };
}

/** Grants access to an investor-relations property; a user who has it already keeps it. */
export async function assignProperty(call: AdminCall, body: AssignPropertyBody): Promise<MessageAnswer> {
  const { em, actor, clientAddress } = call;
  return em.transactional(async (tx) => {
    const user = await userById(tx, body.userId);
    const [property] = await investorProperties(tx, [body.property]);
    if (!property) throw new HttpError(400, notInvestorRelations([body.property]));
    // One statement, so two administrators assigning the same property at once both succeed.
    const inserted = await tx.execute<{ id: number }[]>(
        'insert into property_access (user_id, property_id, created_at) values (?, ?, now()) on conflict (user_id, property_id) do nothing returning id',
        [user.id, property.id],
      );
    const name = displayName(user);
    if (inserted.length === 0) return { message: `${name} already had access to ${property.name}.` };
    recordAdminAction(tx, actor, clientAddress, {
      action: 'assign-property',
      subject: { type: 'user', id: user.id, label: user.email },
      after: { property: property.name },
    });
    return { message: `${name} now has access to ${property.name}.` };
  });
}

/**
 * Takes access away. Any property's link may go, even one no longer flagged for investor
 * relations (taking access away is always safe); a link that is not there is no error.
 */
export async function removeProperty(call: AdminCall, body: RemovePropertyBody): Promise<MessageAnswer> {
  const { em, actor, clientAddress } = call;
  return em.transactional(async (tx) => {
    const user = await userById(tx, body.userId);
    const property = await tx.findOne(Property, { name: body.property });
    if (!property) throw new HttpError(400, `There is no property named '${body.property}'.`);
    const removed = await tx.nativeDelete(PropertyAccess, { user: user.id, property: property.id });
    const name = displayName(user);
    if (removed === 0) return { message: `${name} had no access to ${property.name}: nothing to remove.` };
    recordAdminAction(tx, actor, clientAddress, {
      action: 'remove-property',
      subject: { type: 'user', id: user.id, label: user.email },
      before: { property: property.name },
    });
    return { message: `${name} no longer has access to ${property.name}.` };
  });
}
