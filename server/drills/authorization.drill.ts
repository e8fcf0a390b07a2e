import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMatrix, closeMatrix, formatMatrix, runMatrix, type Matrix } from './authorization-matrix';

// `pnpm drill`: the authorization matrix printed (the same cells as
// authorization-matrix.test.ts asserts in `pnpm test`).
describe('authorization matrix drill', () => {
  let matrix: Matrix;
  beforeAll(async () => {
    matrix = await buildMatrix();
  });
  afterAll(async () => {
    if (matrix) await closeMatrix(matrix);
  });

  it('prints every route as every caller, with 0 unexpected cells', async () => {
    const started = performance.now();
    const cells = await runMatrix(matrix);
    console.log(`\nAuthorization matrix (${Math.round(performance.now() - started)} ms)\n${formatMatrix(matrix, cells)}\n`);
    expect(cells.filter((cell) => cell.unexpected)).toEqual([]);
  });
});
