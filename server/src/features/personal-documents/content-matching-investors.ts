import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentMatchingInvestorsAnswer } from '@everest/core/contract';
import { joinFullName } from '@everest/core/domain';

// "Match by content" reads K-1s in the browser or the desktop, where the files are, with core's
// rule; this is all it asks of the server: who the investors are and what identifies them. One
// query of a few thousand short rows, read once per batch.

/** Every investor, in id order, with the identifiers administrators added in the order added. */
export async function contentMatchingInvestors(em: EntityManager): Promise<ContentMatchingInvestorsAnswer> {
  const rows = await em.execute<{ id: number; email: string; first_name: string; last_name: string; entity: string; is_active: boolean; identifiers: string[] }[]>(
    `select u.id, u.email, u.first_name, u.last_name, u.entity, u.is_active,
            coalesce(array_agg(i.identifier order by i.id) filter (where i.id is not null), '{}')::text[] as identifiers
       from users u left join investor_identifiers i on i.user_id = u.id
      where u.role = 'user'
      group by u.id
      order by u.id`,
  );
  return {
    investors: rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: joinFullName(row.first_name, row.last_name),
      entity: row.entity,
      identifiers: row.identifiers,
      active: row.is_active,
    })),
  };
}
