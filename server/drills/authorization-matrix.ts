import { UnsecuredJWT } from 'jose';
import { changePasswordAnswer, confirmTotpAnswer, documentLinkAnswer, fillPath, startTotpAnswer, investorDocumentsAnswer, loginAnswer, routes, type RouteDef } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { sessionTokens } from '../src/features/auth/session';
import { generate } from 'otplib';
import { secondStepMissingMessage, secondStepNotUsedMessage } from '../src/http/route';
import { SessionTokens } from '../src/features/auth/session-token';
import { User } from '../src/features/users/user.entity';
import { shareMessages } from '../src/features/shares/shares.service';
import { makeDelegates } from './delegates';

/**
 * The authorization matrix: every line of core's route table, called by every kind
 * of caller an intruder could be, each cell's expected answer derived from the route's `access`
 * alone. A route added to the table is in the matrix the day it is written down.
 */

/**
 * What a cell must answer: let in (any answer but 401, 403 or a 5xx fault; 501 is a route not
 * built yet), or refused with the access rule's own sentence. No answer may hold a password hash.
 */
export type Expected = 'admitted' | 401 | 403;

export interface Identity {
  /** Column heading in the printed table. */
  short: string;
  name: string;
  expected: (route: RouteDef) => Expected;
  /** The request for a route: its address and headers (a token, the client address). */
  request: (route: RouteDef) => Promise<{ server: TestServer; path: string; headers: Record<string, string> }>;
}

export interface Cell {
  route: string;
  identity: string;
  expected: Expected;
  status: number;
  error: string | null;
  unexpected: boolean;
}

export const table = Object.entries(routes as Record<string, RouteDef>);

/** Placeholder values for every `:param` of the route table. */
export const placeholders = { id: 1, documentId: 1, versionId: 1, userId: 1, documentType: 'property', token: 'unknown-token' };

const refusals = {
  401: ['Please sign in to continue.'],
  403: ['Only administrators may do this.', secondStepMissingMessage, secondStepNotUsedMessage, shareMessages.investorsOnly],
};

/** The document reads that take `?onBehalfOf=`. */
const readsOnBehalf = new Set<RouteDef>([routes.investorDocuments, routes.investorCategories, routes.download, routes.downloadVersion]);

/** An investor's own shares, which other roles (delegates, staff) are refused. */
const investorOnly = new Set<RouteDef>([routes.shares, routes.createShare, routes.revokeShare]);

/**
 * The rule of the route table (http/route.ts), restated for each kind of caller: 'investor' is
 * any signed-in account that is not an administrator, `sharer` whether it is an investor (role
 * 'user'), who alone may share.
 */
const byRole = (role: 'investor' | 'administrator', sharer = role === 'investor') => (route: RouteDef): Expected => {
  if (route.access === 'public') return 'admitted';
  if (investorOnly.has(route)) return sharer ? 'admitted' : 403;
  if (role === 'administrator') return 'admitted';
  return route.access === 'signed-in' ? 'admitted' : 403;
};
const nobody = (route: RouteDef): Expected => (route.access === 'public' ? 'admitted' : 401);

let addressCounter = 0;
/** A client address per identity, so the rate limits of one never fall on another. */
const nextAddress = () => `203.0.113.${(addressCounter = (addressCounter % 250) + 1)}`;

export interface Matrix {
  identities: Identity[];
  /** Every server the matrix started (close them when done). */
  servers: TestServer[];
  /** The investor's document the link opens. */
  linked: { id: number; type: 'property' | 'user' };
}

async function post(server: TestServer, path: string, body: unknown, token?: string): Promise<unknown> {
  const res = await server.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

const signIn = async (server: TestServer, email: string, password = demoPassword) =>
  loginAnswer.parse(await post(server, '/api/investor/login', { email, password })).token;

/**
 * Builds the callers on a seeded server of their own (and a second instance over the same
 * database that demands a second step of administrators): genuine sessions of each role, and
 * every kind of token that must not pass.
 */
export async function buildMatrix(): Promise<Matrix> {
  const server = await startTestServer({ seed: true });
  // REQUIRE_SECOND_STEP=administrator, as in every real deployment: an administrator without a
  // second step is refused the admin calls. The harness otherwise runs `none`, as the demo does.
  const strict = await startTestServer({ besides: server, env: { REQUIRE_SECOND_STEP: 'administrator' } });
  const em = server.services.orm.em.fork();
  const config = server.services.config;

  // A second administrator beside the built-in one (ADMIN_EMAIL), promoted before signing in.
  const promoted = await em.findOneOrFail(User, { email: 'robert.alvarez@example.com' });
  promoted.role = 'administrator';
  await em.flush();

  const builtIn = await signIn(server, 'admin@example.com');
  const sessions = {
    investor: await signIn(server, 'investor@example.com'),
    employee: await signIn(server, 'employee@example.com'),
    administrator: await signIn(server, promoted.email),
    builtIn,
  };
  const fresh = {
    investor: () => signIn(server, 'investor@example.com'),
    employee: () => signIn(server, 'employee@example.com'),
    administrator: () => signIn(server, promoted.email),
    builtIn: () => signIn(server, 'admin@example.com'),
  };

  // The delegates, made by the investors' own shares (delegates.ts).
  const delegates = await makeDelegates(server, builtIn);
  const delegateSessions = await Promise.all(delegates.map(async (d) => ({ delegate: d, token: await signIn(server, d.email) })));

  // Deactivated after signing in, by an administrator's edit.
  const deactivated = await signIn(server, 'investor2@example.com');
  const deactivatedUser = await em.findOneOrFail(User, { email: 'investor2@example.com' });
  await post(server, '/api/admin/edit-user', { userId: deactivatedUser.id, isActive: false }, builtIn);

  // Deleted after signing in.
  const deleted = await signIn(server, 'john.smith@example.com');
  const deletedUser = await em.findOneOrFail(User, { email: 'john.smith@example.com' });
  await post(server, '/api/admin/delete-user', { userId: deletedUser.id }, builtIn);

  // A session from before its user changed the password (in another session).
  const beforeChange = await signIn(server, 'margaret.chen@example.com');
  const changer = await signIn(server, 'margaret.chen@example.com');
  changePasswordAnswer.parse(
    await post(server, '/api/investor/change-password', { currentPassword: demoPassword, newPassword: `${demoPassword}!x` }, changer),
  );

  // A session that was signed out of.
  const loggedOut = await signIn(server, 'priya.natarajan@example.com');
  await post(server, '/api/investor/logout', {}, loggedOut);

  // Forgeries of the investor's session: expired, signed with another key, unsigned.
  const claims = await sessionTokens(config).verify(sessions.investor);
  if (!claims) throw new Error('the investor session is genuine');
  const subject = { userId: claims.userId, tokenVersion: claims.tokenVersion, secondStep: claims.secondStep };
  const expired = await sessionTokens(config).issue(subject, Date.now() - 9 * 60 * 60 * 1000);
  const otherKey = await new SessionTokens('another-key-another-key-another-key-42').issue(subject);
  const unsigned = new UnsecuredJWT({ ver: claims.tokenVersion, sid: claims.sessionId })
    .setSubject(String(claims.userId))
    .setIssuer('everest-properties')
    .setAudience('investor-portal')
    .setIssuedAt()
    .setExpirationTime('1h')
    .encode();

  // A document link of one of the investor's own documents.
  const list = await server.api('/api/investor/documents', { headers: { authorization: `Bearer ${sessions.investor}` } });
  const own = investorDocumentsAnswer.parse(await list.json()).documents.find((d) => d.documentType === 'personal' && d.fileExists);
  if (!own) throw new Error('the demo data give investor@example.com a personal document');
  const linked = { id: own.id, type: 'user' as const };
  const link = documentLinkAnswer.parse(await post(server, '/api/investor/document-link', linked, sessions.investor)).token;

  // The strict instance's administrator is an account of its own: the built-in administrator's
  // 'Sign out everywhere else', in its row of the matrix, ends that account's other sessions.
  const unenrolled = 'unenrolled.admin@example.com';
  await post(server, '/api/admin/create-user', { name: 'Unenrolled Administrator', email: unenrolled, role: 'administrator', password: demoPassword }, builtIn);
  const strictAdmin = await signIn(strict, unenrolled);

  // The kinds of session of administrators who set up a second step (two accounts, so that one
  // row's 'Sign out everywhere else' ends no session of another row): the one that turned it on
  // (it goes on with the second step); one opened with the password alone before it was turned on
  // (ended by turning it on); and a password-only session of the current token version (as one
  // issued before sessions carried the claim), which never gains the admin calls.
  const enrol = async (email: string) => {
    await post(server, '/api/admin/create-user', { name: 'Enrolled Administrator', email, role: 'administrator', password: demoPassword }, builtIn);
    const before = await signIn(strict, email);
    const enrolling = await signIn(strict, email);
    const { secret } = startTotpAnswer.parse(await post(strict, '/api/investor/second-step/totp/start', { currentPassword: demoPassword }, enrolling));
    const goesOn = confirmTotpAnswer.parse(await post(strict, '/api/investor/second-step/totp/confirm', { code: await generate({ secret }) }, enrolling));
    const row = await em.fork().findOneOrFail(User, { email });
    const opened = (secondStep: boolean) => () => sessionTokens(config).issue({ userId: row.id, tokenVersion: row.tokenVersion, secondStep });
    return { before, twoStep: goesOn.token ?? '', opened };
  };
  const enrolledAdmin = await enrol('enrolled.admin@example.com');
  const guessedAdmin = await enrol('guessed.admin@example.com');
  const passwordOnly = await guessedAdmin.opened(false)();

  const bearer = (target: TestServer, token: string | (() => Promise<string>) | null, refreshOnLogout?: () => Promise<string>) => {
    const from = nextAddress();
    return async (route: RouteDef) => {
      let value = typeof token === 'function' ? await token() : token;
      // Signing out ends the session it is called with: a genuine caller gets a session of its own.
      if (route === routes.logout && refreshOnLogout) value = await refreshOnLogout();
      return {
        server: target,
        path: fillPath(route.path, placeholders),
        headers: { 'x-forwarded-for': from, ...(value ? { authorization: `Bearer ${value}` } : {}) },
      };
    };
  };

  const identities: Identity[] = [
    { short: 'anon', name: 'anonymous', expected: nobody, request: bearer(server, null) },
    { short: 'inv', name: 'investor', expected: byRole('investor'), request: bearer(server, sessions.investor, fresh.investor) },
    { short: 'emp', name: 'employee', expected: byRole('investor', false), request: bearer(server, sessions.employee, fresh.employee) },
    // Each delegate reads on behalf of its share's investor wherever a route takes `onBehalfOf`.
    ...delegateSessions.map(({ delegate, token }): Identity => {
      const request = bearer(server, token, () => signIn(server, delegate.email));
      return {
        short: `d-${delegate.kind}`,
        name: delegate.name,
        expected: byRole('investor', delegate.investor),
        request: async (route) => {
          const base = await request(route);
          return readsOnBehalf.has(route) ? { ...base, path: `${base.path}${base.path.includes('?') ? '&' : '?'}onBehalfOf=${delegate.ownerId}` } : base;
        },
      };
    }),
    { short: 'adm', name: 'administrator', expected: byRole('administrator'), request: bearer(server, sessions.administrator, fresh.administrator) },
    { short: 'b-adm', name: 'built-in administrator', expected: byRole('administrator'), request: bearer(server, sessions.builtIn, fresh.builtIn) },
    {
      short: '2step',
      name: 'administrator without a second step, REQUIRE_SECOND_STEP=administrator: only the set-up, the profile and sign-out (public routes as anyone)',
      expected: (route) => (route.access === 'public' || route.beforeSecondStep ? 'admitted' : 403),
      request: bearer(strict, strictAdmin, () => signIn(strict, unenrolled)),
    },
    {
      short: '2s-on',
      name: 'administrator signed in with a second step, REQUIRE_SECOND_STEP=administrator',
      expected: byRole('administrator'),
      request: bearer(strict, enrolledAdmin.twoStep, enrolledAdmin.opened(true)),
    },
    {
      short: 'pw-only',
      name: 'password-only session of an administrator who has a second step: only the set-up, the profile and sign-out',
      expected: (route) => (route.access === 'public' || route.beforeSecondStep ? 'admitted' : 403),
      request: bearer(strict, passwordOnly, guessedAdmin.opened(false)),
    },
    { short: '2s-pre', name: 'session from before the account turned a second step on', expected: nobody, request: bearer(strict, guessedAdmin.before) },
    { short: 'deact', name: 'deactivated user', expected: nobody, request: bearer(server, deactivated) },
    { short: 'expd', name: 'expired token', expected: nobody, request: bearer(server, expired) },
    { short: 'key', name: 'token signed with another key', expected: nobody, request: bearer(server, otherKey) },
    { short: 'none', name: 'alg: none', expected: nobody, request: bearer(server, unsigned) },
    { short: 'del', name: 'token of a deleted user', expected: nobody, request: bearer(server, deleted) },
    { short: 'pwd', name: 'token from before a password change', expected: nobody, request: bearer(server, beforeChange) },
    { short: 'out', name: 'token that logged out', expected: nobody, request: bearer(server, loggedOut) },
    {
      short: 'link',
      name: 'document link (5 minutes, one document): as ?token= on the download of its document, as a bearer token elsewhere',
      expected: (route) => (route === routes.download ? 'admitted' : nobody(route)),
      request: async (route) => {
        const from = nextAddress();
        if (route !== routes.download) return { server, path: fillPath(route.path, placeholders), headers: { 'x-forwarded-for': from, authorization: `Bearer ${link}` } };
        return { server, path: `${fillPath(route.path, { id: linked.id })}?type=user&token=${link}`, headers: { 'x-forwarded-for': from } };
      },
    },
    {
      short: 'qtok',
      name: "the investor's session token as ?token= (the spec's download call; no other route reads it)",
      expected: (route) => (route === routes.download ? 'admitted' : nobody(route)),
      request: async (route) => {
        const path = fillPath(route.path, { ...placeholders, id: route === routes.download ? linked.id : placeholders.id });
        const token = route === routes.logout ? await fresh.investor() : sessions.investor;
        return { server, path: `${path}?type=user&token=${token}`, headers: { 'x-forwarded-for': nextAddress() } };
      },
    },
  ];
  return { identities, servers: [strict, server], linked };
}

/** The `error` sentence of a JSON answer, or null. */
function errorOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

/** Calls every route as every identity and compares each answer with the access rule. */
export async function runMatrix(matrix: Matrix): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const [name, route] of table) {
    // A row at once: the callers are independent of each other (each its own session and address).
    const row = await Promise.all(
      matrix.identities.map(async (identity): Promise<Cell> => {
        const { server, path, headers } = await identity.request(route);
        const res = await server.api(path, {
          method: route.method,
          headers: { accept: 'application/json', ...headers, ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
          body: route.method === 'POST' ? '{}' : undefined,
        });
        const text = await res.text();
        const error = errorOf(text);
        const expected = identity.expected(route);
        const unexpected =
          expected === 'admitted'
            ? res.status === 401 || res.status === 403 || (res.status >= 500 && res.status !== 501)
            : res.status !== expected || !refusals[expected].includes(error ?? '');
        // No answer, to anyone, carries a password hash.
        const leaks = /\$argon2|passwordHash|password_hash/.test(text);
        return { route: name, identity: identity.short, expected, status: res.status, error, unexpected: unexpected || leaks };
      }),
    );
    cells.push(...row);
  }
  return cells;
}

export async function closeMatrix(matrix: Matrix): Promise<void> {
  for (const server of matrix.servers) await server.close();
}

/** The table as text: a row per route, a column per identity, `!` after an unexpected answer. */
export function formatMatrix(matrix: Matrix, cells: Cell[]): string {
  const columns = matrix.identities.map((identity) => identity.short);
  const nameWidth = Math.max(...table.map(([name]) => name.length)) + 2;
  const width = Math.max(...columns.map((c) => c.length)) + 2;
  const lines = [
    'route'.padEnd(nameWidth) + 'access'.padEnd(14) + columns.map((c) => c.padStart(width)).join(''),
  ];
  for (const [name, route] of table) {
    const row = cells.filter((cell) => cell.route === name);
    lines.push(
      name.padEnd(nameWidth) +
        route.access.padEnd(14) +
        columns.map((c) => {
          const cell = row.find((r) => r.identity === c);
          return `${cell?.status ?? '-'}${cell?.unexpected ? '!' : ''}`.padStart(width);
        }).join(''),
    );
  }
  lines.push('', ...matrix.identities.map((identity) => `${identity.short.padEnd(width)} ${identity.name}`));
  const unexpected = cells.filter((cell) => cell.unexpected).length;
  lines.push('', `${table.length} routes × ${columns.length} callers = ${cells.length} cells, ${unexpected} unexpected`);
  return lines.join('\n');
}
