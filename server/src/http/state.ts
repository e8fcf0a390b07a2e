import type { EntityManager } from '@mikro-orm/postgresql';
import type { Role } from '@everest/core/domain';

/** The signed-in user as every request sees it, once the session is verified. */
export interface SessionUser {
  id: number;
  email: string;
  role: Role;
}

export interface AppState {
  user: SessionUser | null;
  /** This request's unit of work (a fork of the ORM's entity manager, made on first use). */
  em: EntityManager;
}
