import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '@everest/core/domain';

/** The signed-in user as every request sees it, once the session is verified. */
export interface SessionUser {
  id: number;
  email: string;
  role: Role;
  /**
   * The session this request came with (its token's), which signing out ends; its token version,
   * which a document link of this session carries.
   */
  session: { id: string; expiresAt: Date; tokenVersion: number; secondStep: boolean };
  /**
   * REQUIRE_SECOND_STEP names this user's role and this session was not opened with a second
   * step: 'not-set-up' while the account has none yet, 'not-used' when it has one but this
   * session was opened with the password alone. Every signed-in route but the set-up, the
   * profile and sign-out refuses them (http/route.ts).
   */
  secondStepMissing?: 'not-set-up' | 'not-used';
}

/**
 * What a call may have done that this server acts on at once, once the call is over (its
 * transaction committed), rather than wait for the database's notice or the next poll. A route
 * declares its effects once, where it is bound (http/route.ts); services.ts says what each does.
 */
export type CallEffect =
  /** Ended or changed sessions (password, role, e-mail, activity): drop this server's session records. */
  | 'ends-sessions'
  /** Queued e-mail in the outbox: wake the worker. */
  | 'queues-mail'
  /**
   * Published, changed or removed documents: drop this server's investors' document lists at
   * once, so the administrator's next look at the portal shows the change (other instances
   * follow on the database's notice a moment later).
   */
  | 'changes-documents'
  /** Created, changed or removed accounts: drop this server's administrators' user lists at once. */
  | 'changes-users'
  /** A share made, revoked or ended, or an owner deactivated or given another role: drop this server's live shares at once. */
  | 'changes-shares';

export type CallEffects = Record<CallEffect, () => void>;

export interface AppState {
  user: SessionUser | null;
  /** This request's unit of work (a fork of the ORM's entity manager, made on first use). */
  em: EntityManager;
  effects: CallEffects;
}

/**
 * Each request's state. Its unit of work is forked on first use, explicitly rather than by
 * RequestContext: that AsyncLocalStorage cost a third of the throughput of the public property
 * list, which needs no database at all while its cache is warm.
 */
export class RequestState implements AppState {
  user: SessionUser | null = null;
  private forked: EntityManager | undefined;

  constructor(
    private readonly orm: MikroORM,
    readonly effects: CallEffects,
  ) {}

  get em(): EntityManager {
    return (this.forked ??= this.orm.em.fork());
  }
}
