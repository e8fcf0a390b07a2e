import os from 'node:os';
import { activityActions } from '@everest/core/contract';
import { executeBound } from '../src/db/bound-query';
import { activityPageStatement, type ActivityFilter } from '../src/features/audit/activity.service';
import { populateUsers } from './admin-users';
import type { BenchServer } from './bench-server';
import { signIn } from './documents';
import { load, type LoadResult } from './load';

const rows = 1_000_000;
/** People whose changes the rows record: the actor of a row is one of the first 20 users. */
const people = 20;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const seconds = 10;
const goalMs = 50;

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * Brings audit_events to 1,000,000 staff changes with one INSERT … SELECT FROM generate_series:
 * 20 people, each doing every action in turn (about 150 of each per quarter), one row every 94
 * seconds over about three years, each with a subject and a field before and after. All of them are Activity entries, the indexes' worst
 * case (document reads never enter its partial indexes).
 */
async function populateAudit(server: BenchServer): Promise<void> {
  const connection = server.services.orm.em.fork().getConnection();
  const [{ count } = { count: '0' }] = await connection.execute<{ count: string }[]>('select count(*) from audit_events');
  const missing = rows - Number(count);
  if (missing <= 0) return;
  const started = Date.now();
  await connection.execute(`
    insert into audit_events (user_id, action, client_address, details, created_at)
    select p.ids[1 + i % ${people}], (${sqlArray(activityActions)})[1 + (i / ${people}) % ${activityActions.length}], '203.0.113.' || (i % 250),
           jsonb_build_object('actorEmail', p.emails[1 + i % ${people}],
             'subject', jsonb_build_object('type', 'user', 'id', i % 5000, 'label', 'investor' || (i % 5000) || '@example.com'),
             'before', jsonb_build_object('entity', 'Trust ' || i), 'after', jsonb_build_object('entity', 'Trust ' || (i + 1))),
           now() - (i * interval '94 seconds')
      from generate_series(1, ${missing}) i,
           (select array_agg(id order by id) as ids, array_agg(email order by id) as emails
              from (select id, email from users order by id limit ${people}) first_people) p`);
  await connection.execute('analyze audit_events');
  console.log(`  ${missing} audit rows written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Activity pages as the panel asks for them, over 1,000,000 rows. Goal: p99 of the filtered page under 50 ms. */
export async function benchActivity(server: BenchServer): Promise<void> {
  await populateUsers(server);
  await populateAudit(server);
  const token = await signIn(server, 'admin@example.com');
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const connection = server.services.orm.em.fork().getConnection();
  const [{ id: person } = { id: 0 }] = await connection.execute<{ id: number }[]>('select id from users order by id offset 3 limit 1');
  const [{ id: middle } = { id: 0 }] = await connection.execute<{ id: number }[]>(
    `select id from audit_events where action not in ('preview', 'download') order by created_at desc, id desc offset ${rows / 2} limit 1`,
  );
  const year = new Date().getUTCFullYear() - 1;
  // PostgreSQL's own time for the filtered page, apart from the machine's load on the HTTP figures.
  const filtered: ActivityFilter = { userId: person, action: 'edit-user', from: `${year}-04-01`, to: `${year}-06-30` };
  const { sql, params } = activityPageStatement(filtered, undefined, 51);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const [plan] = await executeBound<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(server.services.orm.em.fork(), `explain (analyze, format json) ${sql}`, params);
    times.push(plan?.['QUERY PLAN'][0]['Execution Time'] ?? Number.NaN);
  }
  times.sort((a, b) => a - b);
  console.log(`  PostgreSQL's execution time of the filtered page, 50 runs one at a time: median ${times[25]?.toFixed(2)} ms, max ${times.at(-1)?.toFixed(2)} ms`);
  const pages = [
    ['filtered page: person, action and a quarter', `/api/admin/activity?userId=${person}&action=edit-user&from=${year}-04-01&to=${year}-06-30`, true],
    ['person only', `/api/admin/activity?userId=${person}`, false],
    ['action only, a year', `/api/admin/activity?action=delete-document&from=${year}-01-01&to=${year}-12-31`, false],
    ['no filter, the page after 500,000 entries (keyset)', `/api/admin/activity?before=${middle}`, false],
  ] as const;
  console.log(`GET /api/admin/activity over ${rows.toLocaleString('en-US')} audit rows, ${connections} connections, ${seconds} s each`);
  for (const [what, path, goal] of pages) {
    const first = (await (await fetch(`${server.url}${path}`, { headers })).json()) as { entries: unknown[] };
    await load(`${server.url}${path}`, { connections, seconds: 2, headers }); // warm-up
    const result = await load(`${server.url}${path}`, { connections, seconds, headers });
    report(`${what} (${first.entries.length} entries)`, result, goal);
  }
}

function report(what: string, result: LoadResult, goal: boolean): void {
  const loadAverage = os.loadavg().map((n) => n.toFixed(2)).join(' ');
  console.log(`  ${what}: ${result.requestsPerSecond.toFixed(0)} requests/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms (load average ${loadAverage})`);
  if (goal) console.log(`    goal p99 < ${goalMs} ms: ${result.latency.p99 < goalMs ? 'met' : 'NOT met'}`);
}
