import { expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness';
import { openOrm } from '../orm';

// The photos uploaded before AVIF copies existed keep their WebP copies, now named as such.
it('names the format of the copies made before, and takes it back down', async () => {
  const db = await createTestDatabase();
  const orm = await openOrm(db.url);
  const connection = orm.em.getConnection();
  const variantsOf = async (id: number) =>
    ((await connection.execute(`select image_variants from properties where id = ?`, [id])) as { image_variants: unknown }[])[0]?.image_variants;
  try {
    const migrator = orm.getMigrator();
    await migrator.down({ to: 'Migration20261126140000_document_versions' });
    const older = [
      { url: '/media/aa.webp', width: 480 },
      { url: '/media/bb.webp', width: 960 },
    ];
    const [withCopies, without] = (await connection.execute(
      `insert into properties (name, type, address, city, state, zip_code, status, image, image_variants, created_at, updated_at)
       values ('Older Photo', 'residential', '1 Main St', 'Pasadena', 'CA', '91101', 'active', '/media/bb.webp', ?::jsonb, now(), now()),
              ('Seeded Drawing', 'residential', '2 Main St', 'Pasadena', 'CA', '91101', 'active', '/media/x.svg', null, now(), now())
       returning id`,
      [JSON.stringify(older)],
    )) as { id: number }[];

    await migrator.up();
    expect(await variantsOf(withCopies?.id ?? 0)).toEqual(older.map((copy) => ({ ...copy, type: 'image/webp' })));
    expect(await variantsOf(without?.id ?? 0)).toBeNull();

    await migrator.down({ to: 'Migration20261126140000_document_versions' });
    expect(await variantsOf(withCopies?.id ?? 0)).toEqual(older);
  } finally {
    await orm.close(true);
    await db.drop();
  }
});
