import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { investorDocumentsAnswer } from '@everest/core/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { sessionTokens } from '../auth/session';

// The investor's list is written by PostgreSQL as JSON text and compressed off the event loop,
// then kept compressed with the cached list: what the investor receives must stay exactly what
// JSON.stringify of the mapped rows gave, and a kept answer must follow every change behind it.

const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

/** Text no JSON writer may shorten or escape differently: quotes, backslashes, control characters, non-ASCII, U+2028. */
const awkward = 'Q "4" \\ report\n\ttab \u0001\u001f\u007f é 漢字 😀 \u2028 </script>';

describe("the investor's document list as sent", () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [investorA, investorB, 'admin@example.com']) tokens.set(email, await client.signIn(email));
  });
  afterAll(() => server.close());

  const em = () => server.services.orm.em.fork();
  const userId = async (email: string) => (await em().execute<{ id: number }[]>('select id from users where email = ?', [email]))[0]?.id ?? 0;

  /** The answer's bytes as they leave the server, and its headers. */
  const raw = (path: string, token: string, acceptEncoding?: string) =>
    new Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      http
        .get(`${server.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
        })
        .on('error', reject);
    });
  const decoded = ({ body, headers }: { body: Buffer; headers: http.IncomingHttpHeaders }) =>
    (headers['content-encoding'] === 'br' ? brotliDecompressSync(body) : headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString();
  const listText = async (email: string, acceptEncoding = 'gzip, deflate, br') => {
    const answer = await raw('/api/investor/documents', tokens.get(email) ?? '', acceptEncoding);
    expect(answer.status).toBe(200);
    return decoded(answer);
  };
  const titles = async (email: string) => investorDocumentsAnswer.parse(JSON.parse(await listText(email))).documents.map((d) => d.title);

  /** The list as the server wrote it before PostgreSQL did: its rows mapped in JavaScript, then JSON.stringify. */
  async function expectedList(email: string): Promise<string> {
    const id = await userId(email);
    const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const opened = new Set(
      (await em().execute<{ key: string }[]>(`select document_type || ':' || document_id as key from document_reads where user_id = ?`, [id])).map((r) => r.key),
    );
    const property = await em().execute<Record<string, string | number | null>[]>(
      `select d.id, d.title, p.name as property, d.year, d.quarter, d.filename, f.size, ${iso('d.uploaded_at')} as uploaded_at, d.version,
              ${iso('d.corrected_at')} as corrected_at
         from property_documents d join stored_files f on f.id = d.file_id left join properties p on p.id = d.property_id
        where d.property_id is null or d.property_id in (select property_id from property_access where user_id = ?) order by d.id`,
      [id],
    );
    const personal = await em().execute<Record<string, string | number | null>[]>(
      `select d.id, d.title, d.document_category, d.description, to_char(d.document_date, 'YYYY-MM-DD') as document_date, d.tags, u.email,
              d.user_id, ${iso('d.uploaded_at')} as uploaded_at, d.filename, f.size, d.year, d.quarter, d.version, ${iso('d.corrected_at')} as corrected_at
         from user_documents d join stored_files f on f.id = d.file_id join users u on u.id = d.user_id where d.user_id = ? order by d.id`,
      [id],
    );
    return JSON.stringify({
      documents: [
        ...property.map((r) => ({
          id: r.id,
          title: r.title,
          property: r.property ?? 'General',
          year: r.year,
          quarter: r.quarter,
          filename: r.filename,
          fileSize: Number(r.size),
          uploadedAt: r.uploaded_at,
          fileExists: true,
          documentType: 'property',
          version: r.version,
          correctedAt: r.corrected_at,
          opened: opened.has(`property:${r.id}`),
        })),
        ...personal.map((r) => ({
          id: r.id,
          title: r.title,
          documentCategory: r.document_category,
          description: r.description,
          documentDate: r.document_date,
          tags: r.tags,
          userEmail: r.email,
          assignedUserId: r.user_id,
          uploadedAt: r.uploaded_at,
          filename: r.filename,
          fileSize: Number(r.size),
          documentType: 'personal',
          year: r.year,
          quarter: r.quarter,
          fileExists: true,
          version: r.version,
          correctedAt: r.corrected_at,
          opened: opened.has(`personal:${r.id}`),
        })),
      ],
    });
  }

  /** Publishes a document as another instance would (plain SQL): only the database's notice tells this server. */
  async function insertPersonal(email: string, title: string, extra: { description?: string; tags?: string } = {}): Promise<number> {
    const [row] = await em().execute<{ id: number }[]>(
      `insert into user_documents (user_id, title, document_category, description, tags, document_date, year, quarter, filename, file_id, uploaded_at, version, corrected_at)
       select u.id, ?, 'tax', ?, ?, date '2026-03-31', 2026, 'Q1', 'awkward.pdf', (select file_id from user_documents order by id limit 1), now(), 2, now()
         from users u where u.email = ? returning id`,
      [title, extra.description ?? '', extra.tags ?? '', email],
    );
    return row?.id ?? 0;
  }

  it('is byte for byte what JSON.stringify wrote of the mapped rows, whatever the documents hold, opened ones included', async () => {
    await insertPersonal(investorA, awkward, { description: `${awkward} described`, tags: `"tag", \\${awkward}` });
    const [generalFile] = await em().execute<{ file_id: number }[]>('select file_id from property_documents order by id limit 1');
    await em().execute(
      `insert into property_documents (title, property_id, year, quarter, filename, file_id, uploaded_at) values (?, null, 2026, 'Q1', ?, ?, now())`,
      [awkward, `${awkward}.pdf`, generalFile?.file_id],
    );
    const [first] = await em().execute<{ id: number }[]>('select id from property_documents where property_id is null order by id limit 1');
    await em().execute(
      `insert into document_reads (user_id, document_type, document_id, first_opened_at, last_opened_at) values (?, 'property', ?, now(), now())`,
      [await userId(investorA), first?.id],
    );
    const expected = await expectedList(investorA);
    await vi.waitFor(async () => expect(await listText(investorA, '')).toBe(expected), { timeout: 5000 });
    expect(expected).toContain('"opened":true');
    // Every encoding carries the same text, first load and cached alike.
    for (const encoding of ['br', 'gzip', 'gzip, deflate, br', '']) expect(await listText(investorA, encoding)).toBe(expected);
    server.services.documentLists.clear();
    for (const encoding of ['br', 'gzip', '']) expect(await listText(investorA, encoding)).toBe(expected);
  });

  it('keeps the headers the list had: its encoding chosen from Accept-Encoding, Vary, and no caching anywhere', async () => {
    server.services.documentLists.clear();
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      for (const load of ['first', 'cached']) {
        const answer = await raw('/api/investor/documents', tokens.get(investorB) ?? '', accept);
        expect(answer.headers['content-encoding'], `${accept}, ${load}`).toBe(encoding);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('private, no-store');
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        expect(answer.headers['content-length']).toBe(String(answer.body.length));
        expect(answer.headers.etag).toBeUndefined();
      }
    }
  });

  it("never answers one caller's kept list to another, nor an investor's own list to their delegate view", async () => {
    const onlyA = `Only for A ${Date.now()}`;
    await insertPersonal(investorA, onlyA);
    await vi.waitFor(async () => expect(await titles(investorA)).toContain(onlyA), { timeout: 5000 });
    expect(await titles(investorB)).not.toContain(onlyA);
    expect(await titles('admin@example.com')).not.toContain(onlyA);
    expect(await titles(investorA)).toContain(onlyA);
  });

  it('drops the compressed list when a document is published, when access to a property ends, and when a share ends', async () => {
    // Cached in brotli first, then each change is made and the next brotli answer must show it.
    const published = `Published later ${Date.now()}`;
    expect(await titles(investorB)).not.toContain(published);
    await insertPersonal(investorB, published);
    await vi.waitFor(async () => expect(await titles(investorB)).toContain(published), { timeout: 5000 });

    const [access] = await em().execute<{ property_id: number; name: string }[]>(
      `select pa.property_id, p.name from property_access pa join properties p on p.id = pa.property_id
        where pa.user_id = ? and exists (select 1 from property_documents d where d.property_id = pa.property_id) order by pa.property_id limit 1`,
      [await userId(investorB)],
    );
    const [ofProperty] = await em().execute<{ title: string }[]>('select title from property_documents where property_id = ? limit 1', [access?.property_id]);
    const propertyTitles = async () =>
      investorDocumentsAnswer
        .parse(JSON.parse(await listText(investorB)))
        .documents.flatMap((d) => (d.documentType === 'property' && d.property === access?.name ? [d.title] : []));
    expect(await propertyTitles()).toContain(ofProperty?.title);
    // Through the administrators' route, whose effect drops this server's lists at once.
    const removed = await client.call('/api/admin/remove-property', {
      token: tokens.get('admin@example.com'),
      body: { userId: await userId(investorB), property: access?.name },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await propertyTitles()).toEqual([]);

    // A delegate reading B's list through a share: kept compressed under the share, gone with it.
    const [delegate] = await em().execute<{ id: number; token_version: number }[]>(
      `insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
       values ('list-delegate@example.com', 'x', 'List', 'Delegate', 'delegate', now(), now()) returning id, token_version`,
    );
    const [share] = await em().execute<{ id: number }[]>(
      `insert into shares (owner_id, delegate_id, personal_scope, categories, property_scope, notify, created_at)
       values (?, ?, 'all', '{}', 'all', false, now()) returning id`,
      [await userId(investorB), delegate?.id],
    );
    const delegateToken = await sessionTokens(server.services.config).issue({ userId: delegate?.id ?? 0, tokenVersion: delegate?.token_version ?? 0, secondStep: false });
    const onBehalf = `/api/investor/documents?onBehalfOf=${await userId(investorB)}`;
    const delegateAnswer = await vi.waitFor(
      async () => {
        const answer = await raw(onBehalf, delegateToken, 'br');
        expect(answer.status).toBe(200);
        return answer;
      },
      { timeout: 5000 },
    );
    expect(delegateAnswer.headers['content-encoding']).toBe('br');
    expect(decoded(delegateAnswer)).toContain(published);
    expect(decoded(await raw('/api/investor/documents', delegateToken, 'br'))).toBe('{"documents":[]}');
    await em().execute('update shares set revoked_at = now() where id = ?', [share?.id]);
    await vi.waitFor(async () => expect((await raw(onBehalf, delegateToken, 'br')).status).toBe(404), { timeout: 5000 });
  });
});
