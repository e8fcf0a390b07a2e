import { demoPassword } from '@everest/fixtures';
import { parseBulkImportCsv } from '@everest/core/domain';
import { populateUsers } from './admin-users';
import type { BenchServer } from './bench-server';

const rows = 10_000;
const goalRowsPerSecond = 10_000;
/** Each round imports a CSV of its own (new e-mails, a new city and property for the same users). */
const rounds = 3;
const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';

/**
 * A 10,000-row CSV against a database of 20,000 users: half the rows are existing users with a
 * new city and a new property (updates), half are new users with two properties. Preview, then
 * import with duplicate handling 'update' and both kinds of e-mail, each through HTTP as the
 * browser sends it; three rounds (the database grows by 5,000 users each), medians reported,
 * then the last file once more (changes nothing). Goal: 10,000 rows/s for each, e-mails queued.
 * The server runs in this process (bench-server.ts), so the client's JSON work counts too.
 */
export async function benchBulkImport(server: BenchServer): Promise<void> {
  await populateUsers(server);
  const connection = server.services.orm.em.fork().getConnection();
  const existing = await connection.execute<{ email: string; first_name: string; last_name: string }[]>(
    `select email, first_name, last_name from users where email like '%@example.com' and role = 'user' order by id desc limit ${rows / 2}`,
  );
  const properties = (
    await connection.execute<{ name: string }[]>('select name from properties where investor_relations order by id limit ?', [3 + rounds])
  ).map((p) => p.name);
  if (existing.length < rows / 2 || properties.length < 3 + rounds) throw new Error('the bench database lacks users or properties');
  const [{ count: usersBefore } = { count: '?' }] = await connection.execute<{ count: string }[]>('select count(*) from users');

  /** Round r: the same 5,000 existing users get a new city and one more property; 5,000 new users. */
  const csvOf = (round: number) => {
    const stamp = `${Date.now().toString(36)}r${round}`;
    const lines = [header];
    // The names as they are (every row needs them); the address and a property are the changes.
    existing.forEach((u, i) =>
      lines.push(`${u.email},${u.first_name},${u.last_name},,,"${properties[2 + round]}",${i} Bench Ave.,Bench City ${stamp},CA,91101`),
    );
    for (let i = 0; i < rows / 2; i += 1) {
      lines.push(`bench.${stamp}.${i}@example.com,Zoë,Import ${i},,user,"${properties[0]},${properties[1]}",${i} Main St.,Pasadena,CA,91101`);
    }
    return new TextEncoder().encode(lines.join('\r\n'));
  };

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

  const parseTimes: number[] = [];
  const previewTimes: number[] = [];
  const importTimes: number[] = [];
  let preview: Record<string, unknown> = {};
  let results: unknown;
  let body: object = {};
  let bytes = 0;
  for (let round = 0; round < rounds; round += 1) {
    const csv = csvOf(round);
    bytes = csv.byteLength;
    const parseStarted = performance.now();
    const parsed = parseBulkImportCsv(csv);
    parseTimes.push(performance.now() - parseStarted);
    if (parsed.valid.length !== rows) throw new Error(`the bench CSV has row errors: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
    const previewed = await post('/api/admin/preview-bulk-import', { csvData: parsed.csvData });
    previewTimes.push(previewed.ms);
    preview = previewed.json.preview as Record<string, unknown>;
    body = { csvData: parsed.csvData, duplicateHandling: 'update', sendWelcomeEmails: true, sendUpdateEmails: true };
    const imported = await post('/api/admin/bulk-import-users', body);
    importTimes.push(imported.ms);
    results = imported.json.results;
  }
  const again = await post('/api/admin/bulk-import-users', body);
  // For the split: one more round without e-mails (the 10,000 e-mails are most of the bytes written).
  const quiet = parseBulkImportCsv(csvOf(rounds));
  const withoutMail = await post('/api/admin/bulk-import-users', { csvData: quiet.csvData, duplicateHandling: 'update' });

  const rate = (ms: number) => Math.round((rows * 1000) / ms);
  const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
  const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(', ');
  const verdict = (ms: number) => (rate(ms) >= goalRowsPerSecond ? 'met' : 'NOT met');
  const counts = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  console.log(`Bulk user import: ${rows} rows (${bytes} bytes of CSV; ${rows / 2} new, ${rows / 2} updates) over ${usersBefore} users, ${rounds} rounds`);
  console.log(`  parse in core (not counted below): median ${median(parseTimes).toFixed(0)} ms (${list(parseTimes)}), ${rate(median(parseTimes))} rows/s`);
  console.log(
    `  preview: median ${median(previewTimes).toFixed(0)} ms (${list(previewTimes)}), ${rate(median(previewTimes))} rows/s;` +
      ` last: ${counts(preview.newUsers)} new, ${counts(preview.existingUsers)} changed, ${counts(preview.errors)} errors`,
  );
  console.log(
    `  import (update, welcome and update e-mails): median ${median(importTimes).toFixed(0)} ms (${list(importTimes)}), ${rate(median(importTimes))} rows/s;` +
      ` last: ${JSON.stringify(withoutErrors(results))}`,
  );
  console.log(`  import without e-mails (one more round): ${withoutMail.ms.toFixed(0)} ms, ${rate(withoutMail.ms)} rows/s`);
  console.log(`  same file again: ${again.ms.toFixed(0)} ms, ${rate(again.ms)} rows/s; ${JSON.stringify(withoutErrors(again.json.results))}`);
  console.log(`  goal ${goalRowsPerSecond} rows/s: preview ${verdict(median(previewTimes))}, import ${verdict(median(importTimes))}`);
}

function withoutErrors(results: unknown): unknown {
  if (!results || typeof results !== 'object') return results;
  return Object.fromEntries(Object.entries(results).filter(([key]) => key !== 'errors'));
}
