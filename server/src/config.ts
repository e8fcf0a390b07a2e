import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import type { Role } from '@everest/core/domain';

// The only module that reads process.env. A bad value stops start-up with one sentence that
// names the variable.

const optionalUrl = z.url().optional();

const s3Address = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^/].*)?$/;

function isCron(value: string): boolean {
  try {
    new Cron(value, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  TRUST_PROXY: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Everest Properties <no-reply@example.com>'),
  CONTACT_EMAIL: z.email('must be an e-mail address').default('info@example.com'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha', 'recaptcha-enterprise']).default('altcha'),
  ALTCHA_HMAC_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  ALTCHA_COMPLEXITY: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(10, 'must be between 10 and 1000000')
    .max(1_000_000, 'must be between 10 and 1000000')
    .default(1000),
  RECAPTCHA_SITE_KEY: z.string().optional(),
  RECAPTCHA_SECRET_KEY: z.string().optional(),
  RECAPTCHA_PROJECT_ID: z.string().optional(),
  RECAPTCHA_API_KEY: z.string().optional(),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_ENTERPRISE_URL: z.url().default('https://recaptchaenterprise.googleapis.com/v1'),
  GEOCODER_URL: z.url().default('https://nominatim.openstreetmap.org/search'),
  TILE_URL: z.string().min(1).default('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png'),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  FILE_STORE: z.string().regex(s3Address, 'must be s3://bucket or s3://bucket/prefix (unset: files under DATA_DIR)').optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce
    .number({ message: 'must be a number of minutes' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 1440')
    .max(1440, 'must be between 1 and 1440')
    .default(15),
  // No default here: it depends on DATABASE_URL (see loadConfig).
  REQUIRE_SECOND_STEP: z.enum(['none', 'administrator', 'staff', 'all'], { message: 'must be none, administrator, staff or all' }).optional(),
  SECOND_STEP_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  ALLOW_SHARING: z.enum(['true', 'false'], { message: 'must be true or false' }).default('true'),
  BACKUP_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  BACKUP_TO: z
    .string()
    .refine((value) => !value.startsWith('s3:') || s3Address.test(value), 'must be a folder or s3://bucket/prefix')
    .optional(),
  // No default here: it depends on BACKUP_KEY (see loadConfig).
  BACKUP_SCHEDULE: z
    .string()
    .refine((value) => value === 'off' || isCron(value), 'must be a cron expression such as "0 2 * * *", or off')
    .optional(),
  BACKUP_KEEP: z
    .string()
    .regex(/^\d{1,3},\d{1,3},\d{1,3}$/, 'must be three counts, daily,weekly,monthly, such as 7,4,12')
    .default('7,4,12'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  host: string;
  /** Believe X-Forwarded-For (only behind a proxy that sets it), else rate limits could be dodged. */
  trustProxy: boolean;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where contact-form messages are e-mailed (the firm's general-information address). */
  contactEmail: string;
  jwtSecret: string;
  captcha: {
    provider: Env['CAPTCHA_PROVIDER'];
    altchaHmacKey: string;
    /** The most proof-of-work attempts an ALTCHA challenge takes (about 1 ms each in a browser). */
    altchaComplexity: number;
    recaptchaSiteKey: string | undefined;
    recaptchaSecretKey: string | undefined;
    recaptchaProjectId: string | undefined;
    recaptchaApiKey: string | undefined;
    /** Google's siteverify endpoint; another address only for tests or a relay. */
    recaptchaVerifyUrl: string;
    /** Base of the reCAPTCHA Enterprise REST API (`…/projects/{project}/assessments`). */
    recaptchaEnterpriseUrl: string;
  };
  geocoderUrl: string;
  tileUrl: string;
  adminEmail: string;
  logLevel: Env['LOG_LEVEL'];
  /** Where stored files live: a folder under DATA_DIR, or an S3-compatible bucket (FILE_STORE). */
  fileStore: FileStoreConfig;
  /** How often each instance prunes what has expired (see features/housekeeping). */
  housekeepingIntervalMs: number;
  secondStep: {
    /** REQUIRE_SECOND_STEP as it was given or defaulted, for the start-up lines. */
    setting: NonNullable<Env['REQUIRE_SECOND_STEP']>;
    /** The roles that must set up a second step before they may call the admin routes. */
    requiredRoles: readonly Role[];
    /** Encrypts TOTP secrets and keys the backup codes' hashes (SECOND_STEP_KEY). */
    key: string;
  };
  /**
   * Investors may share access with others (ALLOW_SHARING, default on). Off, no share
   * may be made and none is read through, as if every share had ended; they come back when on.
   */
  allowSharing: boolean;
  /** The bearer token GET /metrics asks for (METRICS_TOKEN); without it there are no metrics to read. */
  metricsToken: string | undefined;
  backups: BackupConfig;
  /** How to reach S3 for a bucket named on the command line (`backup --to s3://…`, `restore s3://…`). */
  s3: S3Connection;
  /** The secrets taken from the environment rather than DATA_DIR: a backup cannot hold them, so a restore says to set them again. */
  secretsFromEnvironment: string[];
}

export interface BackupConfig {
  /** Encrypts and authenticates every archive (BACKUP_KEY); kept apart from the backups. */
  key: string | undefined;
  /** Where backups go (BACKUP_TO): a folder, by default DATA_DIR/backups, or a bucket. */
  to: BackupPlace;
  /** A cron expression in the firm's time zone, or null when scheduled backups are off. */
  schedule: string | null;
  keep: { daily: number; weekly: number; monthly: number };
}

export type BackupPlace = { kind: 'folder'; path: string } | ({ kind: 's3'; bucket: string; prefix: string } & S3Connection);

/** How to reach an S3-compatible service (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID…), for files and backups alike. */
export interface S3Connection {
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** Absent: the AWS SDK's own chain (AWS_* variables, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export type FileStoreConfig = { kind: 'local'; root: string } | ({ kind: 's3'; bucket: string; prefix: string } & S3Connection);

function s3Connection(e: Env): S3Connection {
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('The environment variables S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither.');
  }
  return {
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    // S3-compatible services mostly want the bucket in the path; AWS itself in the host name.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : e.S3_ENDPOINT !== undefined,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
  };
}

/** `s3://bucket/some/prefix` as its bucket and its prefix without slashes at either end. */
export function s3BucketAndPrefix(address: string): { bucket: string; prefix: string } {
  const [bucket = '', ...rest] = address.slice('s3://'.length).split('/');
  return { bucket, prefix: rest.join('/').replace(/^\/+|\/+$/g, '') };
}

function fileStoreConfig(e: Env, dataDir: string): FileStoreConfig {
  const root = path.join(dataDir, 'files');
  if (!e.FILE_STORE) return { kind: 'local', root };
  return { kind: 's3', ...s3BucketAndPrefix(e.FILE_STORE), ...s3Connection(e) };
}

/** Every night at 2 in the firm's time zone, when few investors are reading. */
export const defaultBackupSchedule = '0 2 * * *';

/**
 * A backup every night where there is a key to encrypt it with. Without a key nothing is
 * scheduled (BACKUP_SCHEDULE=off turns them off too): the System tab says backups are off.
 */
function backupConfig(e: Env, dataDir: string): BackupConfig {
  const [daily = 7, weekly = 4, monthly = 12] = e.BACKUP_KEEP.split(',').map(Number);
  const schedule = e.BACKUP_SCHEDULE ?? (e.BACKUP_KEY ? defaultBackupSchedule : 'off');
  if (schedule !== 'off' && !e.BACKUP_KEY) {
    throw new ConfigError('The environment variable BACKUP_SCHEDULE needs BACKUP_KEY: scheduled backups are always encrypted.');
  }
  const to = e.BACKUP_TO ?? path.join(dataDir, 'backups');
  return {
    key: e.BACKUP_KEY,
    to: to.startsWith('s3://') ? { kind: 's3', ...s3BucketAndPrefix(to), ...s3Connection(e) } : { kind: 'folder', path: path.resolve(to) },
    schedule: schedule === 'off' ? null : schedule,
    keep: { daily, weekly, monthly },
  };
}

const secondStepRoles: Record<NonNullable<Env['REQUIRE_SECOND_STEP']>, readonly Role[]> = {
  none: [],
  administrator: ['administrator'],
  staff: ['administrator', 'everest_employee'],
  // Delegates read K-1s through shares: 'all' means them too.
  all: ['administrator', 'everest_employee', 'user', 'delegate'],
};

/** A reason the server cannot start, said in one sentence to the operator. */
export class StartupError extends Error {}

export class ConfigError extends StartupError {}

/** Parses the environment; throws ConfigError with one sentence naming the variable. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  // Empty strings mean "not set", as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const value = env[name];
    throw new ConfigError(
      `The environment variable ${name}${value === undefined ? '' : ` ("${value}")`} is invalid: ${issue?.message ?? 'bad value'}.`,
    );
  }
  if (result.data.CAPTCHA_PROVIDER !== 'altcha') {
    for (const name of ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET_KEY'] as const) {
      if (result.data.CAPTCHA_PROVIDER === 'recaptcha' && !result.data[name]) {
        throw new ConfigError(`The environment variable ${name} is required when CAPTCHA_PROVIDER is recaptcha.`);
      }
    }
    if (result.data.CAPTCHA_PROVIDER === 'recaptcha-enterprise') {
      for (const name of ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_PROJECT_ID', 'RECAPTCHA_API_KEY'] as const) {
        if (!result.data[name]) {
          throw new ConfigError(`The environment variable ${name} is required when CAPTCHA_PROVIDER is recaptcha-enterprise.`);
        }
      }
    }
  }
  return result.data;
}

/**
 * A secret that must survive restarts (JWT signing, captcha HMAC) but that nobody configured:
 * generated once and kept in DATA_DIR, readable by the server's user only.
 */
function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, `${name}.secret`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(env);
  const dataDir = path.resolve(e.DATA_DIR);
  // The embedded database is the demo (seeded with known passwords): it signs in without a
  // second step unless asked; a real database gets the issue's default.
  const secondStep = e.REQUIRE_SECOND_STEP ?? (e.DATABASE_URL ? 'administrator' : 'none');
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY === 'true',
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL.toLowerCase(),
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir, 'jwt'),
    captcha: {
      provider: e.CAPTCHA_PROVIDER,
      altchaHmacKey: e.ALTCHA_HMAC_KEY ?? persistentSecret(dataDir, 'altcha'),
      altchaComplexity: e.ALTCHA_COMPLEXITY,
      recaptchaSiteKey: e.RECAPTCHA_SITE_KEY,
      recaptchaSecretKey: e.RECAPTCHA_SECRET_KEY,
      recaptchaProjectId: e.RECAPTCHA_PROJECT_ID,
      recaptchaApiKey: e.RECAPTCHA_API_KEY,
      recaptchaVerifyUrl: e.RECAPTCHA_VERIFY_URL,
      recaptchaEnterpriseUrl: e.RECAPTCHA_ENTERPRISE_URL.replace(/\/+$/, ''),
    },
    geocoderUrl: e.GEOCODER_URL,
    tileUrl: e.TILE_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    logLevel: e.LOG_LEVEL,
    fileStore: fileStoreConfig(e, dataDir),
    housekeepingIntervalMs: e.HOUSEKEEPING_INTERVAL_MINUTES * 60_000,
    secondStep: {
      setting: secondStep,
      requiredRoles: secondStepRoles[secondStep],
      key: e.SECOND_STEP_KEY ?? persistentSecret(dataDir, 'second-step'),
    },
    allowSharing: e.ALLOW_SHARING === 'true',
    metricsToken: e.METRICS_TOKEN,
    backups: backupConfig(e, dataDir),
    s3: s3Connection(e),
    secretsFromEnvironment: (['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'SECOND_STEP_KEY'] as const).filter((name) => e[name] !== undefined),
  };
}
