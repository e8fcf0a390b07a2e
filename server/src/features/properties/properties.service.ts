import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { PublicProperty } from '@everest/core/contract';
import { cacheTable } from '../../caches';
import type { NotifiedCache } from '../../db/notified-cache';
import { SerializedJson } from '../../http/serialized-json';
import { Property, type IProperty } from './property.entity';

export function toPublicProperty(p: IProperty): PublicProperty {
  return {
    id: p.id,
    name: p.name,
    image: p.image ?? null,
    imageVariants: p.imageVariants ?? null,
    type: p.type,
    status: p.status,
    address: p.address,
    city: p.city,
    state: p.state,
    zipCode: p.zipCode,
    phone: p.phone ?? null,
    website: p.website ?? null,
    latitude: p.latitude ?? null,
    longitude: p.longitude ?? null,
  };
}

/** The public list: every property that is not inactive (DECISIONS.md), by name. */
export async function listPublicProperties(em: EntityManager): Promise<PublicProperty[]> {
  const rows = await em.find(Property, { status: { $ne: 'inactive' } }, { orderBy: { name: 'asc' } });
  return rows.map(toPublicProperty);
}

/** The public list as ready JSON, kept in memory on every instance (cacheTable.propertyList). */
export type PropertyListCache = NotifiedCache<SerializedJson<PublicProperty[]>>;

/**
 * The public list as ready JSON, from memory (dropped by the database on any change): the answer
 * of GET /api/properties, and the list the server renders the public pages with.
 */
export function cachedPublicProperties({ orm, propertyList }: { orm: MikroORM; propertyList: PropertyListCache }): Promise<SerializedJson<PublicProperty[]>> {
  return propertyList.get(cacheTable.propertyList.key(), async () => SerializedJson.of(await listPublicProperties(orm.em.fork())));
}

/** The public list as ready JSON when it is in memory, without waiting for anything. */
export function readyPublicProperties({ propertyList }: { propertyList: PropertyListCache }): SerializedJson<PublicProperty[]> | undefined {
  return propertyList.ready(cacheTable.propertyList.key());
}
