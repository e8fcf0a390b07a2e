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

  it('schedules a backup every night at 2 where there is a key, into DATA_DIR/backups, and none without one', () => {
    const dir = dataDir();
    const keyed = loadConfig({ DATA_DIR: dir, BACKUP_KEY: 'k'.repeat(32) });
    expect(keyed.backups).toEqual({ key: 'k'.repeat(32), to: { kind: 'folder', path: path.join(dir, 'backups') }, schedule: '0 2 * * *', keep: { daily: 7, weekly: 4, monthly: 12 } });
    expect(loadConfig({ DATA_DIR: dir }).backups.schedule).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, BACKUP_KEY: 'k'.repeat(32), BACKUP_SCHEDULE: 'off' }).backups.schedule).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, BACKUP_KEY: 'k'.repeat(32), BACKUP_KEEP: '14,8,24' }).backups.keep).toEqual({ daily: 14, weekly: 8, monthly: 24 });
    const bucket = loadConfig({ DATA_DIR: dir, BACKUP_TO: 's3://firm-backups/everest/nightly', S3_ENDPOINT: 'http://127.0.0.1:9000' }).backups.to;
    expect(bucket).toMatchObject({ kind: 's3', bucket: 'firm-backups', prefix: 'everest/nightly', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  });

  it('refuses a bad backup setting with a sentence naming it', () => {
    const dir = dataDir();
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_KEY: 'short' })).toThrow(/BACKUP_KEY .* at least 32 characters/);
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_KEY: 'k'.repeat(32), BACKUP_SCHEDULE: 'every night' })).toThrow(/BACKUP_SCHEDULE \("every night"\) is invalid: must be a cron expression/);
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_SCHEDULE: '0 3 * * *' })).toThrow(/BACKUP_SCHEDULE needs BACKUP_KEY/);
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_KEEP: '7' })).toThrow(/BACKUP_KEEP .* daily,weekly,monthly/);
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_TO: 's3://' })).toThrow(/BACKUP_TO .* must be a folder or s3:\/\/bucket/);
  });

  it('says which secrets came from the environment, for a restore to ask for again', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: 'j'.repeat(32) }).secretsFromEnvironment).toEqual(['JWT_SECRET']);
    expect(loadConfig({ DATA_DIR: dataDir() }).secretsFromEnvironment).toEqual([]);
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
