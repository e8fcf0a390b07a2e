import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Access } from '@everest/core/contract';
import { secondStepMissingMessage, secondStepNotUsedMessage } from '../src/http/route';
import { buildMatrix, closeMatrix, runMatrix, table, type Cell, type Matrix } from './authorization-matrix';

/**
 * The route-table walk of DESIGN.md, as issue 22's matrix: every line of core's route table as
 * every kind of caller (genuine sessions of each role, and every token that must not pass),
 * the expected answer of each cell derived from the route's `access`. `pnpm drill` prints it
 * (authorization.drill.ts).
 */
describe('the authorization matrix of the route table', () => {
  let matrix: Matrix;
  let cells: Cell[];

  beforeAll(async () => {
    matrix = await buildMatrix();
    cells = await runMatrix(matrix);
  });
  afterAll(async () => {
    if (matrix) await closeMatrix(matrix);
  });

  it('covers every route of the table, with routes of every access rule, as every caller', () => {
    expect([...new Set(table.map(([, route]) => route.access))].sort()).toEqual<Access[]>(['administrator', 'public', 'signed-in']);
    expect(cells).toHaveLength(table.length * matrix.identities.length);
  });

  it('has no cell whose answer differs from the access rule', () => {
    expect(cells.filter((cell) => cell.unexpected)).toEqual([]);
  });

  it('lets the document link open its own download and nothing else', () => {
    const link = cells.filter((cell) => cell.identity === 'link');
    expect(link.find((cell) => cell.route === 'download')?.status).toBe(200);
    const signedIn = table.filter(([, route]) => route.access !== 'public' && route !== routes.download).map(([name]) => name);
    expect(link.filter((cell) => signedIn.includes(cell.route)).map((cell) => cell.status)).toEqual(signedIn.map(() => 401));
  });

  // Issue 33, gap 1: the administrator's password alone opened every K-1 through the investor routes.
  it('refuses the administrator without a second step every route but the set-up, the profile and sign-out, the K-1 routes included', () => {
    const strict = cells.filter((cell) => cell.identity === '2step');
    expect(strict.map((cell) => cell.route).sort()).toEqual(table.map(([name]) => name).sort());
    const open = new Set(table.filter(([, route]) => route.access === 'public' || route.beforeSecondStep).map(([name]) => name));
    const refused = strict.filter((cell) => !open.has(cell.route));
    expect(refused.filter((cell) => cell.status !== 403 || cell.error !== secondStepMissingMessage)).toEqual([]);
    const names = refused.map((cell) => cell.route);
    for (const route of ['investorDocuments', 'download', 'downloadVersion', 'documentLink', 'adminUsers', 'bulkImportUsers']) expect(names).toContain(route);
    // What it may still do: set the second step up, read its profile, sign out.
    expect([...open].filter((name) => routes[name as keyof typeof routes].access !== 'public')).toEqual(
      expect.arrayContaining(['profile', 'logout']),
    );
  });

  it('never lets a password-only session of an administrator who has a second step past the set-up, the profile and sign-out', () => {
    const open = new Set(table.filter(([, route]) => route.access === 'public' || route.beforeSecondStep).map(([name]) => name));
    const refused = cells.filter((cell) => cell.identity === 'pw-only' && !open.has(cell.route));
    expect(refused.length).toBeGreaterThan(50);
    expect(refused.filter((cell) => cell.status !== 403 || cell.error !== secondStepNotUsedMessage)).toEqual([]);
    // Opened before the second step was turned on: ended with it, everywhere.
    const before = cells.filter((cell) => cell.identity === '2s-pre' && routes[cell.route as keyof typeof routes].access !== 'public');
    expect(before.filter((cell) => cell.status !== 401)).toEqual([]);
  });
});
