import { describe, expect, it } from 'vitest';
import { SecondStepSecrets } from './second-step-secrets';

describe('stored TOTP secrets', () => {
  const secrets = new SecondStepSecrets('a-second-step-key-of-the-test');

  it('decrypt what they encrypted', () => {
    expect(secrets.decrypt(secrets.encrypt('JBSWY3DPEHPK3PXP'))).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuse a stored secret whose authentication tag was cut short', () => {
    const [version, iv, tag, data] = secrets.encrypt('JBSWY3DPEHPK3PXP').split('.') as [string, string, string, string];
    // GCM checks only as many bytes of the tag as it is given: 4 bytes are guessed in 2^32 tries.
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => secrets.decrypt([version, iv, shortTag, data].join('.'))).toThrow();
  });

  it('refuse a stored secret that was changed', () => {
    const [version, iv, tag, data] = secrets.encrypt('JBSWY3DPEHPK3PXP').split('.') as [string, string, string, string];
    const changed = Buffer.from(data, 'base64url');
    changed[0] = (changed[0] ?? 0) ^ 1;
    expect(() => secrets.decrypt([version, iv, tag, changed.toString('base64url')].join('.'))).toThrow();
  });
});
