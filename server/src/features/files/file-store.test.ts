import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from './local-file-store';

describe('FileStore.sweepTemp', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'everest-store-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("removes the temp files of uploads cut off long ago, and leaves a live upload's alone", async () => {
    const store = new LocalFileStore(root);
    const tmp = path.join(root, 'tmp');
    await mkdir(tmp, { recursive: true });
    await writeFile(path.join(tmp, 'killed-upload'), 'half a file');
    await writeFile(path.join(tmp, 'live-upload'), 'arriving');
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await utimes(path.join(tmp, 'killed-upload'), hourAgo, hourAgo);

    expect(await store.sweepTemp(10 * 60_000)).toBe(1);
    expect(await readdir(tmp)).toEqual(['live-upload']);
  });

  it('is content with a store that never received anything', async () => {
    expect(await new LocalFileStore(path.join(root, 'empty')).sweepTemp(0)).toBe(0);
  });
});
