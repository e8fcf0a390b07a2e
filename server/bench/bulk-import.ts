import { demoPassword } from '@everest/fixtures';
import { parseBulkImportCsv } from '@everest/core/domain';
import { populateUsers } from './admin-users';
import type { BenchServer } from './bench-server';

const rows = 10_000;
const goalRowsPerSecond = 10_000;
const previewRuns = 3;
const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';

/**
 * A 10,000-row CSV against a database of 20,000 users: half the rows are existing users with a
 * new city and a new property (updates), half are new users with two properties. Preview, then
 * import with duplicate handling 'update' and both kinds of e-mail, each through HTTP as the
 * browser sends it. Goal: 10,000 rows/s for each, the queued e-mails included.
 */
export async function benchBulkImport(server: BenchServer): Promise<void> {
  await populateUsers(server);
  const connection = server.services.orm.em.fork().getConnection();
  const existing = await connection.execute<{ email: string; first_name: string; last_name: string }[]>(
    `select email, first_name, last_name from users where email like '%@example.com' and role = 'user' order by id desc limit ${rows / 2}`,
  );
  const properties = (await connection.execute<{ name: string }[]>('select name from properties where investor_relations order by id limit 3')).map(
    (p) => p.name,
  );
  if (existing.length < rows / 2 || properties.length < 3) throw new Error('the bench database lacks users or properties');
  const stamp = Date.now().toString(36);
  const lines = [header];
  // The names as they are (every row needs them); the address and a property are the changes.
  existing.forEach((u, i) =>
    lines.push(`${u.email},${u.first_name},${u.last_name},,,"${properties[2]}",${i} Bench Ave.,Bench City ${stamp},CA,91101`),
  );
  for (let i = 0; i < rows / 2; i += 1) {
    lines.push(`bench.${stamp}.${i}@example.com,Zoë,Import ${i},,user,"${properties[0]},${properties[1]}",${i} Main St.,Pasadena,CA,91101`);
  }
  const csv = new TextEncoder().encode(lines.join('\r\n'));

  const parseStarted = performance.now();
  const parsed = parseBulkImportCsv(csv);
  const parseMs = performance.now() - parseStarted;
  if (parsed.valid.length !== rows) throw new Error(`the bench CSV has row errors: ${JSON.stringify(parsed.errors.slice(0, 3))}`);

  const signIn = await fetch(`${server.url}/api/investor/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
  });
  if (!signIn.ok) throw new Error(`sign-in of the administrator failed: ${signIn.status}`);
  const { token } = (await signIn.json()) as { token: string };
  const post = async (path: string, body: object) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return { ms, json };
  };
  const rate = (ms: number) => Math.round((rows * 1000) / ms);
  const verdict = (ms: number) => (rate(ms) >= goalRowsPerSecond ? 'met' : 'NOT met');

  const previewTimes: number[] = [];
  let preview: Record<string, unknown> = {};
  for (let run = 0; run < previewRuns; run += 1) {
    const { ms, json } = await post('/api/admin/preview-bulk-import', { csvData: parsed.csvData });
    previewTimes.push(ms);
    preview = json.preview as Record<string, unknown>;
  }
  const counts = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  previewTimes.sort((a, b) => a - b);
  const previewMedian = previewTimes[Math.floor(previewRuns / 2)] ?? 0;

  const body = { csvData: parsed.csvData, duplicateHandling: 'update', sendWelcomeEmails: true, sendUpdateEmails: true };
  const first = await post('/api/admin/bulk-import-users', body);
  const second = await post('/api/admin/bulk-import-users', body);

  const [{ count: users } = { count: '?' }] = await connection.execute<{ count: string }[]>('select count(*) from users');
  console.log(`Bulk user import: ${rows} rows (${csv.byteLength} bytes of CSV; ${rows / 2} new, ${rows / 2} updates), ${users} users after`);
  console.log(`  parse in core (not counted below): ${parseMs.toFixed(0)} ms, ${rate(parseMs)} rows/s`);
  console.log(
    `  preview: median ${previewMedian.toFixed(0)} ms of ${previewRuns} (${previewTimes.map((t) => t.toFixed(0)).join(', ')}), ${rate(previewMedian)} rows/s;` +
      ` ${counts(preview.newUsers)} new, ${counts(preview.existingUsers)} changed, ${counts(preview.errors)} errors`,
  );
  console.log(`  import (update, welcome and update e-mails): ${first.ms.toFixed(0)} ms, ${rate(first.ms)} rows/s; ${JSON.stringify(withoutErrors(first.json.results))}`);
  console.log(`  same file again: ${second.ms.toFixed(0)} ms, ${rate(second.ms)} rows/s; ${JSON.stringify(withoutErrors(second.json.results))}`);
  console.log(`  goal ${goalRowsPerSecond} rows/s: preview ${verdict(previewMedian)}, import ${verdict(first.ms)}`);
}

function withoutErrors(results: unknown): unknown {
  if (!results || typeof results !== 'object') return results;
  return Object.fromEntries(Object.entries(results).filter(([key]) => key !== 'errors'));
}
