import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../../test/s3';
import type { HttpError } from '../../http/errors';
import type { PutOptions } from './file-store';
import { S3FileStore } from './s3-file-store';

const pdf = (size: number, seed: string) => {
  const bytes = randomBytes(size);
  bytes.write(`%PDF-1.7 ${seed}\n`, 0);
  return bytes;
};
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const options: PutOptions = { maxBytes: 20_000_000, accept: ['application/pdf'], tooLargeMessage: 'too large', wrongTypeMessage: 'wrong type' };

/** Collects what a store writes, as a response would receive it. */
function sink(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

describe('S3FileStore against a local S3-compatible server', () => {
  let s3: LocalS3;
  let tempDir: string;
  const stores: S3FileStore[] = [];
  const storeUnder = (prefix: string) => {
    const store = new S3FileStore({
      bucket: s3.bucket,
      prefix,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      tempDir,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    tempDir = mkdtempSync(path.join(os.tmpdir(), 'everest-s3-uploads-'));
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await s3.close();
    rmSync(tempDir, { recursive: true, force: true });
  });

  it('streams a file larger than one part into the bucket and back, whole and by range', async () => {
    const store = storeUnder('streams');
    const bytes = pdf(7 * 1024 * 1024 + 321, 'large');
    const blob = await store.put(Readable.from([bytes]), options);
    expect(blob).toEqual({ sha256: sha256Of(bytes), size: bytes.length, contentType: 'application/pdf' });
    expect(await readdir(tempDir)).toEqual([]);

    const opened = await store.open(blob.sha256);
    expect(opened?.size).toBe(bytes.length);
    const whole = sink();
    await opened?.writeTo(whole.out, { start: 0, end: bytes.length - 1 });
    expect(whole.bytes().equals(bytes)).toBe(true);
    const part = sink();
    await opened?.writeTo(part.out, { start: 5 * 1024 * 1024 - 10, end: 5 * 1024 * 1024 + 9 });
    expect(part.bytes().equals(bytes.subarray(5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 10))).toBe(true);
    await opened?.close();
  });

  it('says a file it does not have is missing', async () => {
    const store = storeUnder('missing');
    expect(await store.exists('0'.repeat(64))).toBe(false);
    expect(await store.open('0'.repeat(64))).toBeNull();
    expect(await store.removeIfUntouched('0'.repeat(64), 0)).toBe(false);
  });

  it('lists only the files under its own prefix', async () => {
    const mine = storeUnder('listed');
    const other = storeUnder('listed-not');
    const a = await mine.put(Readable.from([pdf(100, 'a')]), options);
    const b = await mine.put(Readable.from([pdf(100, 'b')]), options);
    await other.put(Readable.from([pdf(100, 'c')]), options);
    const listed = await mine.list();
    expect(listed.map((f) => f.sha256).sort()).toEqual([a.sha256, b.sha256].sort());
    for (const file of listed) expect(Math.abs(file.mtimeMs - Date.now())).toBeLessThan(60 * 60_000);
  });

  it('removes a file only once it is older than asked', async () => {
    const store = storeUnder('aged');
    const { sha256 } = await store.put(Readable.from([pdf(100, 'aged')]), options);
    expect(await store.removeIfUntouched(sha256, 60 * 60_000)).toBe(false);
    expect(await store.exists(sha256)).toBe(true);
    expect(await store.removeIfUntouched(sha256, 60 * 60_000, Date.now() + 2 * 60 * 60_000)).toBe(true);
    expect(await store.exists(sha256)).toBe(false);
  });

  it('sends nothing to the bucket for a refused upload, and leaves no temp file', async () => {
    const store = storeUnder('refused');
    const tooLarge = await store.put(Readable.from([pdf(2000, 'big')]), { ...options, maxBytes: 1000 }).catch((e: unknown) => e);
    expect((tooLarge as HttpError).status).toBe(413);
    const wrongType = await store.put(Readable.from([randomBytes(2000)]), options).catch((e: unknown) => e);
    expect((wrongType as HttpError).status).toBe(415);
    expect(await store.list()).toEqual([]);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('stops reading from the bucket when the receiver goes away mid-download', async () => {
    const store = storeUnder('cancelled');
    const bytes = pdf(3 * 1024 * 1024, 'cancelled');
    const { sha256 } = await store.put(Readable.from([bytes]), options);
    const opened = await store.open(sha256);
    // A receiver that takes one chunk and then hangs up, as an investor cancelling a download.
    const out = new PassThrough({ highWaterMark: 1024 });
    out.once('data', () => out.destroy());
    await expect(opened?.writeTo(out, { start: 0, end: bytes.length - 1 })).resolves.toBeUndefined();
    expect(out.destroyed).toBe(true);
  });
});
