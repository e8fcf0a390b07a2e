import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';

export function ormOptions(clientUrl: string): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    forceUtcTimezone: true,
    migrations: {
      migrationsList,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: 10 },
    debug: false,
    // Entities are described by defineEntity; nothing to discover from TypeScript metadata.
    discovery: { warnWhenNoEntities: true },
  };
}

export async function openOrm(clientUrl: string): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}
