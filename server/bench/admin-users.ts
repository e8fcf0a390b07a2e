import type { BenchServer } from './bench-server';
import { signIn } from './documents';
import { load, type LoadResult } from './load';

const users = 20_000;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const seconds = 10;
const path = '/api/admin/users?page=1&limit=10&search=smith';

const firstNames = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Wei', 'Priya', 'Carlos', 'Aisha', 'Hiroshi', 'Olga', 'Mateo', 'Fatima', 'Liam', 'Noor'];
// Smith and two names that contain it among 60: about 1,000 users match 'smith'.
const lastNames = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Chen', 'Patel', 'Kim', 'Goldsmith', 'Smithers', 'Okafor', 'Novak', 'Schmidt', 'Rossi', 'Haddad'];

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * Brings the users to 20,000 with one INSERT … SELECT FROM generate_series: names, an entity
 * for one in four, e-mails from the names. Seconds, not minutes (STACK.md).
 */
export async function populateUsers(server: BenchServer): Promise<void> {
  const connection = server.services.orm.em.fork().getConnection();
  const [{ count } = { count: '0' }] = await connection.execute<{ count: string }[]>('select count(*) from users');
  await connection.execute(`
    insert into users (email, password_hash, first_name, last_name, entity, role, created_at, updated_at)
    select lower(f.name || '.' || l.name || '.' || i) || '@example.com', (select password_hash from users where email = 'investor@example.com'),
           f.name, l.name, case when i % 4 = 0 then l.name || ' Family Trust' else '' end, 'user', now(), now()
      from generate_series(1, ${users - Number(count)}) i
      cross join lateral (select (${sqlArray(firstNames)})[1 + (i * 7) % ${firstNames.length}] as name) f
      cross join lateral (select (${sqlArray(lastNames)})[1 + (i * 13) % ${lastNames.length}] as name) l`);
  await connection.execute('analyze users');
}

/**
 * GET the first page of a search as the panel asks for it. Goal: p99 under 30 ms. Reported twice:
 * as answered while no account changes, and with the answer cache bypassed (a search's first look).
 */
export async function benchAdminUsers(server: BenchServer): Promise<void> {
  await populateUsers(server);
  const token = await signIn(server, 'admin@example.com');
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const first = (await (await fetch(`${server.url}${path}`, { headers })).json()) as { users: unknown[]; totalCount: number };
  await load(`${server.url}${path}`, { connections, seconds: 3, headers }); // warm-up
  console.log(`GET ${path} (${users} users, ${first.totalCount} match), ${connections} connections, ${seconds} s`);
  const cached = await load(`${server.url}${path}`, { connections, seconds, headers });
  report('answer from memory (no account changed since the first call)', cached);
  // The first look at a search, or any look after an account changed: PostgreSQL every time.
  const { userLists } = server.services;
  const get = userLists.get.bind(userLists);
  userLists.get = (_key, loadAnswer) => loadAnswer();
  try {
    report('answer from PostgreSQL (cache bypassed)', await load(`${server.url}${path}`, { connections, seconds, headers }));
  } finally {
    userLists.get = get;
  }
}

function report(what: string, result: LoadResult): void {
  console.log(`  ${what}: ${result.requestsPerSecond.toFixed(0)} requests/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`    goal p99 < 30 ms: ${result.latency.p99 < 30 ? 'met' : 'NOT met'}`);
}
