import pg from 'pg';

// What the restore drill compares a restored install with. A backup taken while the server goes
// on writing holds the database at one instant, somewhere between what the source held before
// the load began and what it held once the backup ended. So the restored rows are compared with
// those two readings of the source, table by table, by what the load does to each table.

/** Every row of every table: by table, each row as PostgreSQL's JSON of it (keys sorted), by its id. */
export type TableRows = Record<string, Map<string, string>>;

/** A row's JSON with its keys in one order, so that two readings compare as text. */
export function canonicalRow(row: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b))));
}

function keyOf(row: Record<string, unknown>): string {
  return 'id' in row ? String(row.id) : canonicalRow(row);
}

/** Every row of every table of the schema but the migrations' ledger, read in one transaction. */
export async function readTables(databaseUrl: string): Promise<TableRows> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const tables = (await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations' order by 1`)).rows;
    const found: TableRows = {};
    for (const { name } of tables) {
      const rows = (await client.query<{ row: Record<string, unknown> }>(`select row_to_json(t) as row from "${name.replace(/"/g, '""')}" t`)).rows;
      found[name] = new Map(rows.map(({ row }) => [keyOf(row), canonicalRow(row)]));
    }
    await client.query('commit');
    return found;
  } finally {
    await client.end();
  }
}

/** Rows as `readTables` keeps them, from the answer of a query of the caller's. */
export function rowsByKey(rows: Record<string, unknown>[]): Map<string, string> {
  return new Map(rows.map((row) => [keyOf(row), canonicalRow(row)]));
}

export interface TableRules {
  /** Tables the load only inserts into: the restore holds every row of `before`, and only rows of `after`. */
  appendOnly: ReadonlySet<string>;
  /** Tables whose restored rows are known exactly (worked out by the caller from the snapshot). */
  exact?: Record<string, Map<string, string>>;
  /** Tables the caller compares on its own. */
  elsewhere?: ReadonlySet<string>;
}

export interface TableComparison {
  mismatches: string[];
  tables: number;
  rows: number;
}

const sameRows = (a: Map<string, string> | undefined, b: Map<string, string> | undefined) =>
  (a?.size ?? 0) === (b?.size ?? 0) && [...(a ?? new Map<string, string>())].every(([key, row]) => b?.get(key) === row);

/**
 * Compares the restored rows with the source's before the load and after the backup. A table the
 * load left alone must come back exactly; an append-only one as a set between the two readings,
 * each row as the source has it; one the caller worked out exactly, as worked out. A table the load
 * changed in place that no rule covers is a mismatch too: the drill must say how to compare it.
 */
export function compareTables(before: TableRows, after: TableRows, restored: TableRows, rules: TableRules): TableComparison {
  const mismatches: string[] = [];
  const empty = new Map<string, string>();
  const names = [...new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(restored)])].sort();
  let rows = 0;
  let tables = 0;
  for (const name of names) {
    if (rules.elsewhere?.has(name)) continue;
    tables += 1;
    const was = before[name] ?? empty;
    const is = after[name] ?? empty;
    const back = restored[name];
    if (!back) {
      mismatches.push(`table ${name} is missing from the restored database`);
      continue;
    }
    rows += back.size;
    const say = (what: string, keys: string[]) => {
      if (keys.length > 0) mismatches.push(`${name}: ${keys.length} ${what} (ids ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''})`);
    };
    const exact = rules.exact?.[name];
    if (exact) {
      say('rows missing that the snapshot held', [...exact.keys()].filter((key) => !back.has(key)));
      say('rows the snapshot did not hold', [...back.keys()].filter((key) => !exact.has(key)));
      say('rows other than in the snapshot', [...back].filter(([key, row]) => exact.has(key) && exact.get(key) !== row).map(([key]) => key));
    } else if (sameRows(was, is)) {
      say('rows missing', [...is.keys()].filter((key) => !back.has(key)));
      say('rows the source never had', [...back.keys()].filter((key) => !is.has(key)));
      say('rows other than the source', [...back].filter(([key, row]) => is.has(key) && is.get(key) !== row).map(([key]) => key));
    } else if (rules.appendOnly.has(name)) {
      say('rows missing that were there before the backup began', [...was.keys()].filter((key) => !back.has(key)));
      say('rows the source does not have', [...back.keys()].filter((key) => !is.has(key)));
      say('rows other than the source', [...back].filter(([key, row]) => is.has(key) && is.get(key) !== row).map(([key]) => key));
      say('rows the load changed in place, which an append-only table never has', [...was].filter(([key, row]) => is.get(key) !== row).map(([key]) => key));
    } else {
      mismatches.push(`${name}: changed during the load (${was.size} rows before, ${is.size} after) and no rule says how to compare it`);
    }
  }
  return { mismatches, tables, rows };
}

/**
 * The read receipts as the restored audit rows make them: one row per reader and document, first
 * and last open and how many, as the trigger on `audit_events` keeps them (migration
 * 20261127200000; no delegates in the drill). Read on the source for the audit rows whose ids the
 * restore holds, so the rows a read after the snapshot added or changed are as they were then.
 */
export async function readReceiptsAsOf(sourceUrl: string, auditIds: number[]): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: sourceUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ row: Record<string, unknown> }>(
      `select row_to_json(t) as row from (
         select r.id, r.user_id, r.document_type, r.document_id, a.first_opened_at, a.last_opened_at, a.opens, r.delegate_ids
           from document_reads r
           join (select user_id, document_type, document_id, min(created_at) as first_opened_at, max(created_at) as last_opened_at, count(*)::int as opens
                   from audit_events
                  where id = any($1::int[]) and action in ('preview', 'download') and user_id is not null and document_id is not null
                    and document_type in ('property', 'personal')
                  group by user_id, document_type, document_id) a
             on a.user_id = r.user_id and a.document_type = r.document_type and a.document_id = r.document_id) t`,
      [auditIds],
    );
    return rowsByKey(rows.map((row) => row.row));
  } finally {
    await client.end();
  }
}
