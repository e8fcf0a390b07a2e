import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs SQL with real bind parameters ($1, $2, … sent apart from the text) in the unit of work's
 * transaction, if any, and answers its rows. MikroORM 6's `em.execute` writes every parameter
 * into the SQL text as a quoted literal (Platform.formatQuery) before sending it: for a
 * megabyte of jsonb (a bulk import's rows) that quoting and the parsing of the literal measured
 * more than the statement itself. `?` marks a parameter, as with `em.execute`.
 */
export async function executeBound<T = Record<string, unknown>>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const query = em.getConnection().getKnex().raw(sql, [...params] as never[]);
  const transaction = em.getTransactionContext();
  if (transaction) query.transacting(transaction);
  const result = (await query) as { rows: T[] };
  return result.rows;
}
