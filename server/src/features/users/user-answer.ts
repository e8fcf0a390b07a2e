import type { User } from '@everest/core/contract';
import type { IUser } from './user.entity';

/**
 * A user as every answer carries it: field by field, so that nothing the entity holds beyond the
 * contract (the password hash, the token version) can ever reach a client.
 */
export function toUserAnswer(u: IUser): User {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    entity: u.entity,
    streetAddress: u.streetAddress,
    city: u.city,
    state: u.state,
    zipCode: u.zipCode,
    role: u.role,
    isActive: u.isActive,
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    previousLoginAt: u.previousLoginAt ? u.previousLoginAt.toISOString() : null,
  };
}
