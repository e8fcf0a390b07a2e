import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BackupKey, decryptStream, encryptStream } from './archive-crypto';

const key = BackupKey.fromSecret('the-tests-backup-key-0123456789abcdef');

async function collect(source: Readable, ...steps: NodeJS.ReadWriteStream[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(source, ...(steps as [NodeJS.ReadWriteStream]), new Writable({ write: (chunk: Buffer, _e, done) => (chunks.push(chunk), done()) }));
  return Buffer.concat(chunks);
}

const seal = (plain: Buffer, chunkSizes = [plain.length]) => {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const size of chunkSizes) {
    pieces.push(plain.subarray(at, at + size));
    at += size;
  }
  return collect(Readable.from(pieces), encryptStream(key));
};
const open = (sealed: Buffer, with_ = key) => collect(Readable.from([sealed]), decryptStream(with_, 'the archive'));

describe('backup encryption', () => {
  it.each([0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 3 * 64 * 1024, 200_000])('gives back exactly the %i bytes it sealed', async (size) => {
    const plain = randomBytes(size);
    const sealed = await seal(plain, size > 10 ? [7, size - 7] : [size]);
    expect(sealed.length).toBeGreaterThan(size);
    expect(await open(sealed)).toEqual(plain);
  });

  it('shows none of what it seals: no 16 bytes of a K-1 in the sealed file', async () => {
    // Readable text, not random bytes: a short random plaintext turns up in random output by chance.
    const plain = Buffer.from('Schedule K-1 (Form 1065) For calendar year 2025. Partner: Jane Investor, TIN XXX-XX-1234. '.repeat(2_000));
    const sealed = await seal(plain, [100, plain.length - 100]);
    for (let at = 0; at + 16 <= plain.length; at += 4_099) expect(sealed.includes(plain.subarray(at, at + 16))).toBe(false);
  });

  it('seals the same bytes differently each time (a salt of its own per file)', async () => {
    const plain = Buffer.from('K-1 for Jane Investor');
    expect((await seal(plain)).equals(await seal(plain))).toBe(false);
  });

  it('refuses a file with any one byte changed, at the start, in the middle or in the last tag', async () => {
    const sealed = await seal(randomBytes(150_000));
    for (const at of [30, 70_000, sealed.length - 1]) {
      const damaged = Buffer.from(sealed);
      damaged[at] = (damaged[at] ?? 0) ^ 0x01;
      await expect(open(damaged)).rejects.toThrow(/does not authenticate/);
    }
  });

  it('refuses a file cut short at a chunk boundary, though every chunk left is whole', async () => {
    const sealed = await seal(randomBytes(3 * 64 * 1024 + 10));
    const header = 24;
    const record = 64 * 1024 + 16;
    await expect(open(sealed.subarray(0, header + 2 * record))).rejects.toThrow(/does not authenticate/);
    await expect(open(sealed.subarray(0, 10))).rejects.toThrow(/cut short/);
  });

  it('refuses chunks put in another order', async () => {
    const sealed = await seal(randomBytes(3 * 64 * 1024));
    const header = 24;
    const record = 64 * 1024 + 16;
    const swapped = Buffer.concat([sealed.subarray(0, header), sealed.subarray(header + record, header + 2 * record), sealed.subarray(header, header + record), sealed.subarray(header + 2 * record)]);
    await expect(open(swapped)).rejects.toThrow(/does not authenticate/);
  });

  it('refuses another key, and a file that is not sealed at all', async () => {
    const sealed = await seal(Buffer.from('statement'));
    await expect(open(sealed, BackupKey.fromSecret('somebody-elses-key-0123456789abcdef'))).rejects.toThrow(/BACKUP_KEY is not the key/);
    await expect(open(Buffer.from('plain text that is long enough to have a header'))).rejects.toThrow(/not an encrypted backup file/);
  });

  it('names a document file by a keyed name that is not its hash, the same for one key and another for another', () => {
    const sha256 = 'a'.repeat(64);
    expect(key.fileName(sha256)).toMatch(/^[0-9a-f]{64}$/);
    expect(key.fileName(sha256)).not.toBe(sha256);
    expect(key.fileName(sha256)).toBe(BackupKey.fromSecret('the-tests-backup-key-0123456789abcdef').fileName(sha256));
    expect(key.fileName(sha256)).not.toBe(BackupKey.fromSecret('somebody-elses-key-0123456789abcdef').fileName(sha256));
  });
});
