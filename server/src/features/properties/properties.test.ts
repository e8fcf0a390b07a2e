import { properties as fixtureProperties } from '@everest/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPropertyList } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { Property } from './property.entity';

describe('GET /api/properties', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: true });
  });
  afterAll(() => server.close());

  it('lists every property that is not inactive, with the contract fields', async () => {
    const res = await server.api('/api/properties');
    expect(res.status).toBe(200);
    const list = publicPropertyList.parse(await res.json());
    const expected = fixtureProperties.filter((p) => p.status !== 'inactive').map((p) => p.name).sort();
    expect(list.map((p) => p.name).sort()).toEqual(expected);
    expect(list.some((p) => p.status === 'sold')).toBe(true);
    expect(list.some((p) => p.type === 'headquarters')).toBe(true);
  });

  it('carries coordinates as strings, or null where the property has none', async () => {
    const list = publicPropertyList.parse(await (await server.api('/api/properties')).json());
    for (const property of list) {
      const fixture = fixtureProperties.find((p) => p.name === property.name);
      if (fixture?.latitude === undefined) {
        expect(property.latitude).toBeNull();
      } else {
        expect(Number(property.latitude)).toBeCloseTo(Number(fixture.latitude), 6);
        expect(typeof property.longitude).toBe('string');
      }
    }
  });

  it('serves each property image from the media store as a cacheable image', async () => {
    const [first] = publicPropertyList.parse(await (await server.api('/api/properties')).json());
    expect(first?.image).toMatch(/^\/media\/[a-f0-9]{64}\.svg$/);
    const res = await server.api(first?.image ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(await res.text()).toMatch(/^(<\?xml[^>]*>\s*)?<svg/);
  });

  it('serves its list from memory until the database announces a committed change', async () => {
    const names = async () => publicPropertyList.parse(await (await server.api('/api/properties')).json()).map((p) => p.name);
    const [first, second] = await names();
    if (!first || !second) throw new Error('the fixtures list at least two properties');
    const em = server.services.orm.em.fork();
    const statusOf = async (name: string) =>
      (await em.fork().findOneOrFail(Property, { name }, { fields: ['status'] })).status;

    // A change committed with the table's trigger switched off is announced to nobody: the list
    // still names the property, so it came from memory, not from the database.
    await em.transactional(async (tx) => {
      await tx.execute('alter table properties disable trigger properties_notify_property_list');
      await tx.execute(`update properties set status = 'inactive' where name = ?`, [first]);
      await tx.execute('alter table properties enable trigger properties_notify_property_list');
    });
    expect(await statusOf(first)).toBe('inactive');
    expect(await names()).toContain(first);

    // Announced, it is served at once.
    await em.execute(`select pg_notify('property_list_changed', '')`);
    await expect.poll(names).not.toContain(first);

    // A rolled-back change announces nothing.
    await em
      .transactional(async (tx) => {
        await tx.nativeUpdate(Property, { name: second }, { status: 'inactive' });
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await names()).toContain(second);

    // Any committed write, by whatever code path, is announced by the table's trigger.
    await em.nativeUpdate(Property, { name: second }, { status: 'inactive' });
    await expect.poll(names).not.toContain(second);
  });
});
