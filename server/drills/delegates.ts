import { createShareAnswer, loginAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import type { TestServer } from '../test/harness';
import { hashPassword } from '../src/features/auth/password-hash';

/**
 * The delegates for the drills (authorization matrix, object sweep): one account per
 * way a share can stand, each signed in with the demo password.
 * - `tax`: a delegate-only account with a live share of the owner's tax documents;
 * - `expired`: a share whose last day was yesterday;
 * - `revoked`: a share its owner revoked;
 * - `deact`: a share from an investor an administrator then deactivated;
 * - `inv`: a demo investor (priya.natarajan@example.com) who is also a delegate, of tax documents
 *   and one chosen property.
 * Each drill states, from the database, what each may read: the policy is restated, not reused.
 */
export type DelegateKindName = 'tax' | 'expired' | 'revoked' | 'deact' | 'inv';

export interface Delegate {
  kind: DelegateKindName;
  name: string;
  email: string;
  /** The investor who shared: the `onBehalfOf` of the drills' reads. */
  ownerId: number;
  /** Whether the share is live: the others read nothing through it. */
  live: boolean;
  /** An investor of their own: their own reads follow the investors' rule, else they read nothing of their own. */
  investor: boolean;
  /** What the share covers: personal categories ('all' for every one), chosen properties ('all' for every one of the owner's, with General). */
  categories: string[] | 'all';
  properties: number[] | 'all' | 'none';
}

/** The investor who shares in the drills, and the investor-delegate. */
export const sharingOwner = 'investor@example.com';
export const investorDelegate = 'priya.natarajan@example.com';

async function call(server: TestServer, path: string, body: unknown, token: string): Promise<unknown> {
  const res = await server.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-forwarded-for': '198.18.3.1' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function signIn(server: TestServer, email: string): Promise<string> {
  const res = await server.api('/api/investor/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.3.2' },
    body: JSON.stringify({ email, password: demoPassword }),
  });
  return loginAnswer.parse(await res.json()).token;
}

/** Makes every kind of delegate on a seeded server, as its investors and an administrator would. */
export async function makeDelegates(server: TestServer, adminToken: string): Promise<Delegate[]> {
  const em = server.services.orm.em.fork();
  const idOf = async (email: string) => {
    const [row] = await em.execute<{ id: number }[]>('select id from users where email = ?', [email]);
    if (!row) throw new Error(`${email} has no account`);
    return row.id;
  };
  const ownerId = await idOf(sharingOwner);
  const ownerToken = await signIn(server, sharingOwner);
  const share = async (token: string, body: object) =>
    createShareAnswer.parse(
      await call(server, '/api/investor/shares/create', { categories: [], propertyIds: [], currentPassword: demoPassword, ...body }, token),
    ).share;

  const [chosen] = await em.execute<{ property_id: number }[]>('select property_id from property_access where user_id = ? order by property_id limit 1', [ownerId]);
  if (!chosen) throw new Error(`${sharingOwner} has property access in the demo data`);

  await share(ownerToken, { email: 'delegate.tax@example.com', personalScope: 'categories', categories: ['tax'], propertyScope: 'none' });
  const expired = await share(ownerToken, { email: 'delegate.expired@example.com', personalScope: 'all', propertyScope: 'all' });
  await em.execute(`update shares set ends_on = (now() at time zone 'America/Los_Angeles')::date - 1 where id = ?`, [expired.id]);
  const revoked = await share(ownerToken, { email: 'delegate.revoked@example.com', personalScope: 'all', propertyScope: 'all' });
  await call(server, '/api/investor/shares/revoke', { shareId: revoked.id }, ownerToken);
  await share(ownerToken, {
    email: investorDelegate,
    personalScope: 'categories',
    categories: ['tax'],
    propertyScope: 'properties',
    propertyIds: [chosen.property_id],
  });

  // An investor of their own, with a property and so its documents, who shares everything and is then deactivated.
  const [property] = await em.execute<{ name: string }[]>('select p.name from properties p where p.id = ?', [chosen.property_id]);
  const leaving = 'leaving.investor@example.com';
  await call(
    server,
    '/api/admin/create-user',
    { name: 'Leaving Investor', email: leaving, role: 'user', password: demoPassword, properties: [property!.name] },
    adminToken,
  );
  await share(await signIn(server, leaving), { email: 'delegate.deact@example.com', personalScope: 'all', propertyScope: 'all' });
  const leavingId = await idOf(leaving);
  await call(server, '/api/admin/edit-user', { userId: leavingId, isActive: false }, adminToken);

  // The new delegates choose the demo password, as their welcome link would let them.
  await em.execute(`update users set password_hash = ? where email like 'delegate.%@example.com'`, [await hashPassword(demoPassword)]);

  return [
    { kind: 'tax', name: 'delegate, live share of tax documents only', email: 'delegate.tax@example.com', ownerId, live: true, investor: false, categories: ['tax'], properties: 'none' },
    { kind: 'expired', name: 'delegate, share past its last day', email: 'delegate.expired@example.com', ownerId, live: false, investor: false, categories: 'all', properties: 'all' },
    { kind: 'revoked', name: 'delegate, share revoked by its investor', email: 'delegate.revoked@example.com', ownerId, live: false, investor: false, categories: 'all', properties: 'all' },
    { kind: 'deact', name: 'delegate, share from a deactivated investor', email: 'delegate.deact@example.com', ownerId: leavingId, live: false, investor: false, categories: 'all', properties: 'all' },
    {
      kind: 'inv',
      name: 'investor who is also a delegate (tax documents and one property)',
      email: investorDelegate,
      ownerId,
      live: true,
      investor: true,
      categories: ['tax'],
      properties: [chosen.property_id],
    },
  ];
}
