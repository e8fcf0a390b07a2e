import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedAncestor } from './embedded';

describe('closedAncestor (can the postgres user reach a folder?)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'everest-closed-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names the nearest folder above that others cannot enter', () => {
    chmodSync(root, 0o755);
    mkdirSync(path.join(root, 'closed', 'open'), { recursive: true });
    chmodSync(path.join(root, 'closed'), 0o700);
    chmodSync(path.join(root, 'closed', 'open'), 0o755);
    expect(closedAncestor(path.join(root, 'closed', 'open', 'data'))).toBe(path.join(root, 'closed'));
  });

  it('answers null when every folder above can be entered', () => {
    mkdirSync(path.join(root, 'shared', 'data'), { recursive: true });
    chmodSync(path.join(root, 'shared'), 0o711);
    expect(closedAncestor(path.join(root, 'shared', 'data'))).toBeNull();
  });
});
