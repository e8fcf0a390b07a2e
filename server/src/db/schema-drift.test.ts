import { expect, it } from 'vitest';
import { createTestDatabase } from '../../test/harness';
import { openOrm } from './orm';

// Migrations are hand-written; `migration:create` writes the difference between the entities
// and the database. Were they to disagree, the next generated migration would quietly undo a
// hand-written one (an index the entities do not declare would be dropped).
it('the migrations build exactly the schema the entities describe', async () => {
  const db = await createTestDatabase();
  const orm = await openOrm(db.url);
  try {
    expect(await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })).toBe('');
  } finally {
    await orm.close(true);
    await db.drop();
  }
});
