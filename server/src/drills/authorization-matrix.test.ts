import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Access } from '@everest/core/contract';
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
});
