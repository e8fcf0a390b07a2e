import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorAnswer, fillPath, routes } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';
import { recordingClient } from '../../test/test-client';

/** Just past PostgreSQL's integer, and past the numbers a double holds exactly. */
const tooLarge = [2 ** 31, 2 ** 53] as const;

/** A value for a path parameter that is not an id: the first of its schema's choices. */
function otherParam(schema: z.ZodType | undefined, name: string): string {
  const field = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[name] : undefined;
  return field instanceof z.ZodEnum ? String(field.options[0]) : 'property';
}

const isIdName = (name: string) => /^id$|Id$/.test(name);

/**
 * Every id a client sends is a row of a PostgreSQL integer column: one beyond its range must be
 * refused with a sentence (400) by the contract, never reach the database and answer 500.
 */
describe('ids beyond PostgreSQL integer', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(() => server.close());

  const expectRefused = async (path: string, options: { body?: unknown } = {}) => {
    const res = await client.call(path, { token: admin, ...options });
    expect(res.status, `${path} ${res.text}`).toBe(400);
    expect(errorAnswer.parse(res.json).error, path).toMatch(/^Please choose an? [a-z ]+\.$/);
  };

  it('refuses them in every path of the route table that names an id', async () => {
    const withIds = Object.values(routes).filter((route) => /:[A-Za-z]*(id|Id)\b/.test(route.path));
    expect(withIds.length).toBeGreaterThanOrEqual(9);
    for (const route of withIds) {
      const schema = 'params' in route ? (route.params as z.ZodType) : undefined;
      for (const big of tooLarge) {
        const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
        const params = Object.fromEntries(names.map((name) => [name, isIdName(name) ? String(big) : otherParam(schema, name)]));
        const path = fillPath(route.path, params);
        if (route.method === 'GET') await expectRefused(path);
        else {
          // Uploads read the path before the body: a JSON body still gets the id's sentence or 415.
          const res = await client.call(path, { token: admin, body: {} });
          expect(res.status, `${path} ${res.text}`).not.toBe(500);
          expect([400, 415], path).toContain(res.status);
        }
      }
    }
  });

  it("refuses them in the activity's filters and keyset, and in the other queries", async () => {
    for (const big of tooLarge) {
      await expectRefused(`/api/admin/activity?userId=${big}`);
      await expectRefused(`/api/admin/activity?before=${big}`);
      await expectRefused(`/api/admin/second-step?userId=${big}`);
      await expectRefused(`/api/investor/documents?onBehalfOf=${big}`);
    }
  });

  it('refuses them in bodies', async () => {
    const bodies: [string, object][] = [
      ['/api/admin/edit-user', { userId: 2 ** 31, city: 'Reno' }],
      ['/api/admin/delete-user', { userId: 2 ** 31 }],
      ['/api/admin/end-share', { shareId: 2 ** 53 }],
      ['/api/admin/read-receipts/remind', { userIds: [2 ** 31] }],
      ['/api/admin/read-receipts/remind', { documents: [{ documentType: 'property', id: 2 ** 31 }] }],
      ['/api/investor/document-link', { type: 'property', id: 2 ** 31 }],
    ];
    for (const [path, body] of bodies) await expectRefused(path, { body });
  });

  it('still takes the largest integer, which names no row', async () => {
    const res = await client.call(`/api/admin/activity/entries/${2 ** 31 - 1}`, { token: admin });
    expect(res.status).toBe(404);
  });
});
