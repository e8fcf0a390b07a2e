import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, routes, type Access, type RouteDef } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';
import { recordingClient } from '../features/auth/test-client';
import { User } from '../features/users/user.entity';

/** Placeholder values for every `:param` of the route table. */
const placeholders = { id: 1, documentId: 1, versionId: 1, userId: 1, documentType: 'property', token: 'unknown-token' };

const table = Object.entries(routes as Record<string, RouteDef>);

/**
 * The route-table walk of DESIGN.md: every line of core's route table, as every kind of caller.
 * A route added to the table is walked the day it is written down, built or not (unbuilt ones
 * answer 501 behind the same rule).
 */
describe('who may call each route of the table', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens: Record<'investor' | 'employee' | 'administrator' | 'deactivated', string> = {
    investor: '',
    employee: '',
    administrator: '',
    deactivated: '',
  };

  const call = (route: RouteDef, token?: string) =>
    client.call(fillPath(route.path, placeholders), { method: route.method, token, body: route.method === 'POST' ? {} : undefined });

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    tokens.investor = await client.signIn('investor@example.com');
    tokens.employee = await client.signIn('employee@example.com');
    tokens.administrator = await client.signIn('admin@example.com');
    tokens.deactivated = await client.signIn('investor2@example.com');
    const em = server.services.orm.em.fork();
    const user = await em.findOneOrFail(User, { email: 'investor2@example.com' });
    user.isActive = false;
    await em.flush();
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('walks a table with routes of every access rule', () => {
    const accesses = new Set(table.map(([, route]) => route.access));
    expect([...accesses].sort()).toEqual<Access[]>(['administrator', 'public', 'signed-in']);
  });

  it.each(table.filter(([, route]) => route.access !== 'public'))('%s refuses anonymous callers with 401', async (_name, route) => {
    const res = await call(route);
    expect(res.status, res.text).toBe(401);
    expect(res.json).toEqual({ error: 'Please sign in to continue.' });
  });

  it.each(table.filter(([, route]) => route.access !== 'public'))('%s refuses a deactivated account\'s session with 401', async (_name, route) => {
    await expect.poll(async () => (await call(route, tokens.deactivated)).status).toBe(401);
  });

  it.each(table.filter(([, route]) => route.access === 'administrator'))(
    '%s refuses investors and employees with 403',
    async (_name, route) => {
      for (const role of ['investor', 'employee'] as const) {
        const res = await call(route, tokens[role]);
        expect(res.status, `${role}: ${res.text}`).toBe(403);
        expect(res.json).toEqual({ error: 'Only administrators may do this.' });
      }
    },
  );

  it.each(table)('%s lets in every caller its access rule admits', async (_name, route) => {
    const admitted = {
      public: [undefined, tokens.investor, tokens.administrator],
      'signed-in': [tokens.investor, tokens.employee, tokens.administrator],
      administrator: [tokens.administrator],
    }[route.access];
    // Signing out ends the session it is called with: it gets sessions of its own.
    const sessions = route === routes.logout ? await Promise.all(['investor@example.com', 'admin@example.com'].map((email) => client.signIn(email))) : admitted;
    for (const token of sessions) {
      const res = await call(route, token);
      expect([401, 403], `${route.method} ${route.path}: ${res.text}`).not.toContain(res.status);
    }
  });
});
