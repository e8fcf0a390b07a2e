import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { idempotencyKeyHeader } from '@everest/core/contract';
import type { AppState, SessionUser } from '../../http/state';

// Uploads under an `Idempotency-Key` header. The key is kept in the audit row of what
// the call published (`details.after.idempotencyKey`, beside `answer`, the answer it gave), so
// that a retry from the same administrator (a lost answer, a client restarted mid-batch) is
// answered the first result and publishes nothing again. Keys are the administrator's own: the
// same key from someone else is another call. An index on (user, key) keeps the look-up cheap
// however long the audit table grows (Migration20261127120000).

/** The request's Idempotency-Key, checked by the contract's rule (a 400 beyond 200 characters). */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  return idempotencyKeyHeader.parse(ctx.get('idempotency-key') || undefined);
}

/** A retried upload under its Idempotency-Key is answered before a byte of it is stored again. */
export async function earlierUpload<T>(ctx: Context & { state: AppState }, user: SessionUser, actions: readonly string[], answer: z.ZodType<T>): Promise<T | null> {
  const key = idempotencyKeyOf(ctx);
  const earlier = key ? await earlierAnswer(ctx.state.em, user.id, key, actions) : null;
  return earlier ? answer.parse(earlier) : null;
}

/**
 * Holds the key for the rest of the transaction: a second call with it, at the same moment,
 * waits here and then finds the first one's answer.
 */
export async function holdIdempotencyKey(tx: EntityManager, actorId: number, scope: string, key: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`${scope}:${actorId}:${key}`]);
}

/** The answer this administrator's earlier call under this key gave, when one of `actions` recorded it. */
export async function earlierAnswer(em: EntityManager, actorId: number, key: string, actions: readonly string[]): Promise<unknown> {
  const [row] = await em.execute<{ answer: unknown }[]>(
    `select details->'after'->'answer' as answer from audit_events
      where user_id = ? and details->'after'->>'idempotencyKey' = ?
        and action in (select jsonb_array_elements_text(?::jsonb)) and details->'after'->'answer' is not null
      order by id limit 1`,
    [actorId, key, JSON.stringify(actions)],
  );
  return row?.answer ?? null;
}

/**
 * Writes the answer into the audit row the call has just recorded under its key (the caller
 * holds the key and found no answer under it, so that row is the only one without). Flushes first: the row may still be pending in
 * the unit of work.
 */
export async function rememberAnswer(tx: EntityManager, actorId: number, key: string, actions: readonly string[], answer: unknown): Promise<void> {
  await tx.flush();
  await tx.execute(
    `update audit_events set details = jsonb_set(details, '{after,answer}', ?::jsonb)
      where user_id = ? and details->'after'->>'idempotencyKey' = ?
        and action in (select jsonb_array_elements_text(?::jsonb)) and details->'after'->'answer' is null`,
    [JSON.stringify(answer), actorId, key, JSON.stringify(actions)],
  );
}
