import { z } from 'zod';

/** Raised when an archive's format changes in a way an older restore cannot read. */
export const backupFormat = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
// Names that become paths and SQL identifiers: nothing an altered manifest could climb out with.
const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);

/** `manifest.json`, the first entry of every archive. */
export const backupManifest = z.object({
  format: z.literal(backupFormat),
  product: z.literal('everest'),
  /** The server's version that took it. */
  version: z.string(),
  /** The last migration applied: a restore builds the schema up to it, then runs newer ones. */
  migration: z.string(),
  takenAt: z.iso.datetime(),
  encrypted: z.boolean(),
  tables: z.array(
    z.object({
      name: identifier,
      columns: z.array(identifier),
      rows: z.number().int().nonnegative(),
      sha256,
      bytes: z.number().int().nonnegative(),
    }),
  ),
  sequences: z.array(z.object({ name: identifier, value: z.string().regex(/^-?\d{1,19}$/).nullable() })),
  /** Every stored file the rows name; `name` is its file in the backup place's `files/`. */
  files: z.array(z.object({ sha256, size: z.number().int().nonnegative(), contentType: z.string().max(200), name: sha256 })),
  /** `DATA_DIR/<name>.secret` files inside the archive. */
  secrets: z.array(z.string().regex(/^[a-z0-9-]+$/)),
  /** Secrets the server took from its environment instead: they must be set again as they were. */
  secretsFromEnvironment: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof backupManifest>;
