import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseEnv } from './config';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'everest-config-'));

describe('configuration', () => {
  it('starts with no configuration at all', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.captcha.provider).toBe('altcha');
  });

  it('names the variable when PORT is not a number', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(/^The environment variable PORT \("abc"\) is invalid/);
  });

  it('names the variable when DATABASE_URL is not a PostgreSQL URL', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL .* must be a postgres/);
  });

  it('requires the reCAPTCHA keys when reCAPTCHA is chosen', () => {
    expect(() => parseEnv({ CAPTCHA_PROVIDER: 'recaptcha' })).toThrow(/RECAPTCHA_SITE_KEY is required/);
  });

  it('generates the JWT secret once and keeps it across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
  });

  it('treats an empty variable as unset', () => {
    expect(parseEnv({ PORT: '', SMTP_URL: '' }).PORT).toBe(3000);
  });
});
