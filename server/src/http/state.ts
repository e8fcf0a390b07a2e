import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
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

/**
 * Each request's state. Its unit of work is forked on first use, explicitly rather than by
 * RequestContext: that AsyncLocalStorage cost a third of the throughput of the public property
 * list, which needs no database at all while its cache is warm.
 */
export class RequestState implements AppState {
  user: SessionUser | null = null;
  private forked: EntityManager | undefined;

  constructor(private readonly orm: MikroORM) {}

  get em(): EntityManager {
    return (this.forked ??= this.orm.em.fork());
  }
}
