import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';

// Backups hold every K-1, so each file of a backup is encrypted and authenticated with AES-256-GCM
// from Node's crypto, in chunks (a file may be gigabytes), the STREAM construction: each chunk
// has its own nonce (its number) and says in its authenticated data whether it is the last, so
// chunks cannot be reordered, dropped or cut off at the end without the decryption failing.
//
//   header  magic (8 bytes) · salt (16 bytes)          the file's key: HKDF(master key, salt)
//   chunks  ciphertext (up to 64 KiB) · tag (16 bytes)  the last is shorter than a full one, or empty

const magic = Buffer.from('EVBKUP01');
const saltBytes = 16;
const headerBytes = magic.length + saltBytes;
const chunkBytes = 64 * 1024;
const tagBytes = 16;
const recordBytes = chunkBytes + tagBytes;

/** The key every backup file's own key is drawn from, derived once from BACKUP_KEY. */
export class BackupKey {
  private constructor(
    private readonly master: Buffer,
    private readonly names: Buffer,
  ) {}

  /**
   * scrypt makes guessing a short BACKUP_KEY slow. The salt is fixed: BACKUP_KEY is at least 32
   * characters, and one derivation per run leaves every file its own random salt for its key.
   */
  static fromSecret(secret: string): BackupKey {
    const master = scryptSync(secret, 'everest-backup-key-v1', 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const names = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'everest-backup-file-names', 32));
    return new BackupKey(master, names);
  }

  /**
   * The name a document file is kept under in a backup place: keyed, so that the place does not
   * tell which documents it holds, and so that a new BACKUP_KEY starts a new set of files
   * instead of naming files that key cannot open.
   */
  fileName(sha256: string): string {
    return createHmac('sha256', this.names).update(sha256).digest('hex');
  }

  fileKey(salt: Buffer): Buffer {
    return Buffer.from(hkdfSync('sha256', this.master, salt, 'everest-backup-file', 32));
  }
}

/** A stream that decrypts when `key` is given, and passes the bytes as they are otherwise (an --unencrypted backup). */
export function openingStream(key: BackupKey | null, what: string): Transform {
  return key ? decryptStream(key, what) : new PassThrough();
}

/** True when `head` starts as an encrypted backup file does. */
export function isEncrypted(head: Buffer): boolean {
  return head.length >= magic.length && timingSafeEqual(head.subarray(0, magic.length), magic);
}

function nonce(index: number): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeBigUInt64BE(BigInt(index), 4);
  return bytes;
}

function additionalData(header: Buffer, index: number, last: boolean): Buffer {
  return Buffer.concat([header, nonce(index), Buffer.from([last ? 1 : 0])]);
}

/** A stream that encrypts what goes through it. */
export function encryptStream(key: BackupKey): Transform {
  const salt = randomBytes(saltBytes);
  const header = Buffer.concat([magic, salt]);
  const fileKey = key.fileKey(salt);
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', fileKey, nonce(index));
    cipher.setAAD(additionalData(header, index, last));
    index += 1;
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (!started) {
        this.push(header);
        started = true;
      }
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // A full chunk is sealed as "not last" only once a byte after it is known to follow.
      while (pending.length > chunkBytes) {
        this.push(seal(pending.subarray(0, chunkBytes), false));
        pending = pending.subarray(chunkBytes);
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (!started) this.push(header);
      this.push(seal(pending, true));
      callback();
    },
  });
}

/** The sentence for a file that is not what `BACKUP_KEY` sealed. */
export class BackupAuthenticationError extends Error {
  override name = 'BackupAuthenticationError';
}

/**
 * A stream that decrypts an encrypted backup file and fails, before passing on a byte of a
 * chunk, when that chunk was altered, when chunks were moved, or when the file was cut short.
 */
export function decryptStream(key: BackupKey, what: string): Transform {
  let header: Buffer | null = null;
  let fileKey: Buffer | null = null;
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  const open = (record: Buffer, last: boolean): Buffer => {
    if (!header || !fileKey || record.length < tagBytes) throw new BackupAuthenticationError(`${what} is cut short: it is not a whole backup file.`);
    const decipher = createDecipheriv('aes-256-gcm', fileKey, nonce(index));
    decipher.setAAD(additionalData(header, index, last));
    decipher.setAuthTag(record.subarray(record.length - tagBytes));
    index += 1;
    try {
      return Buffer.concat([decipher.update(record.subarray(0, record.length - tagBytes)), decipher.final()]);
    } catch {
      throw new BackupAuthenticationError(
        `${what} does not authenticate: it was altered or damaged, or BACKUP_KEY is not the key it was made with.`,
      );
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        if (!header) {
          if (pending.length < headerBytes) return callback();
          header = pending.subarray(0, headerBytes);
          if (!isEncrypted(header)) throw new BackupAuthenticationError(`${what} is not an encrypted backup file.`);
          fileKey = key.fileKey(header.subarray(magic.length));
          pending = pending.subarray(headerBytes);
        }
        while (pending.length > recordBytes) {
          this.push(open(pending.subarray(0, recordBytes), false));
          pending = pending.subarray(recordBytes);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        this.push(open(pending, true));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
