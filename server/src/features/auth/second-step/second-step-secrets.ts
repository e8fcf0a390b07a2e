import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/**
 * TOTP secrets are stored encrypted (AES-256-GCM, a key derived from SECOND_STEP_KEY), so a copy
 * of the database alone cannot produce anyone's codes; backup codes are kept as HMACs under
 * another key derived from it, so a copy cannot be searched for them offline either.
 */
export class SecondStepSecrets {
  private readonly encryptionKey: Buffer;
  private readonly codeKey: Buffer;

  constructor(secret: string) {
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'everest-second-step', info, 32));
    this.encryptionKey = derive('totp-secret-encryption');
    this.codeKey = derive('backup-code-hash');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, data] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('A stored TOTP secret has an unknown format.');
    // The whole 16-byte tag: GCM would otherwise check only the bytes it is given (Node 24: DEP0182).
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The stored form of a backup code, as normalised by the contract (no dashes, lower case). */
  hashBackupCode(code: string): string {
    return createHmac('sha256', this.codeKey).update(code).digest('hex');
  }
}

const secretsByKey = new Map<string, SecondStepSecrets>();

/** One instance per configured key: deriving the keys costs a little, and every sign-in needs them. */
export function secondStepSecrets(key: string): SecondStepSecrets {
  let secrets = secretsByKey.get(key);
  if (!secrets) {
    secrets = new SecondStepSecrets(key);
    secretsByKey.set(key, secrets);
  }
  return secrets;
}

// Without 0/o, 1/l/i: a code read off paper is typed right the first time.
const backupAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A backup code of 10 characters from 31 (about 50 bits), shown as `xxxxx-xxxxx`. */
export function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += backupAlphabet[randomInt(backupAlphabet.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The SHA-256 of an mfaToken, as stored: the table alone completes no sign-in. */
export function hashChallengeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
