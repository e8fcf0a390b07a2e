import { demoPassword, demoUsers } from '@everest/fixtures';
import { investorDocumentsAnswer, loginAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../test/harness';
import { secondStepMissingMessage } from '../src/http/route';
import { makeDelegates, type Delegate } from './delegates';

/**
 * The object-level sweep: for each demo investor and employee, every document id in
 * the database (property and personal, plus ids that do not exist) through the list, the preview,
 * the download and the document link. What the policy allows opens; what it does not answers
 * exactly as a document that does not exist (status and body), so nobody learns that it exists.
 * Every readable document is first read from its second byte (`Range: bytes=1-`),
 * which must count as an open in the read receipts; and an administrator who has not set
 * up the second step that REQUIRE_SECOND_STEP asks for is refused every id.
 */

type Kind = 'property' | 'user';

export interface SweepFigures {
  email: string;
  role: string;
  /** Documents (of both kinds) the policy lets this user read, and those it does not. */
  allowed: number;
  refused: number;
  /** Calls made: list, then a ranged read of every readable id, then preview, download and link for every id of both kinds. */
  calls: number;
  /** Calls whose answer was not the expected one, with what was wrong. */
  mismatches: string[];
}

export interface Sweep {
  server: TestServer;
  /** Ids that name no document of that kind, among them ones too large for the column. */
  missingIds: number[];
  documents: { property: { id: number; propertyId: number | null }[]; user: { id: number; userId: number }[] };
  /** Ids of earlier versions of documents (download-version). */
  versionIds: number[];
  /** Every kind of delegate, each swept on its own and on behalf of its share's investor. */
  delegates: Delegate[];
}

export async function buildSweep(): Promise<Sweep> {
  const server = await startTestServer({ seed: true });
  const em = server.services.orm.em.fork();
  const adminLogin = await server.api('/api/investor/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.1.2' },
    body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
  });
  // Made before the documents are listed: the deactivated investor's account owns none of its own.
  const delegates = await makeDelegates(server, loginAnswer.parse(await adminLogin.json()).token);
  const property = (await em.execute<{ id: number; property_id: number | null }[]>('select id, property_id from property_documents order by id')).map(
    (row) => ({ id: row.id, propertyId: row.property_id }),
  );
  const user = (await em.execute<{ id: number; user_id: number }[]>('select id, user_id from user_documents order by id')).map((row) => ({
    id: row.id,
    userId: row.user_id,
  }));
  const versionIds = (await em.execute<{ id: number }[]>('select id from document_versions order by id')).map((row) => row.id);
  const top = Math.max(0, ...property.map((d) => d.id), ...user.map((d) => d.id));
  return {
    server,
    // Ids a row could have; beyond PostgreSQL's integer the contract refuses the id itself (400
    // 'Please choose a document.', http/id-bounds.test.ts), which tells nothing of any row.
    missingIds: [top + 1, top + 1000, 2_147_483_647],
    documents: { property, user },
    versionIds,
    delegates,
  };
}

/** The demo accounts the sweep signs in as: every investor and employee of the fixtures. */
export const sweptUsers = demoUsers.filter((user) => user.role !== 'administrator');

interface Answer {
  status: number;
  body: string;
  type: string | null;
}

/** What `userId` may read of their own, restated from the database (a delegate-only account nothing). */
async function ownReadable(sweep: Sweep, userId: number, role: string) {
  const em = sweep.server.services.orm.em.fork();
  const access = new Set(
    (await em.execute<{ property_id: number }[]>('select property_id from property_access where user_id = ?', [userId])).map((row) => row.property_id),
  );
  if (role === 'delegate') return { property: new Set<number>(), user: new Set<number>() };
  // The policy, restated from the database: 'General' and the user's properties; their own personal documents.
  return {
    property: new Set(sweep.documents.property.filter((d) => d.propertyId === null || access.has(d.propertyId)).map((d) => d.id)),
    user: new Set(sweep.documents.user.filter((d) => d.userId === userId).map((d) => d.id)),
  };
}

/**
 * What a delegate may read on behalf of its share's investor, restated from the
 * database: nothing through a share that is not live; else the owner's personal documents of the
 * share's categories, and the documents of the owner's properties now that the share chose (with
 * General for 'all').
 */
async function sharedReadable(sweep: Sweep, delegate: Delegate) {
  const em = sweep.server.services.orm.em.fork();
  if (!delegate.live) return { property: new Set<number>(), user: new Set<number>() };
  const categories = new Map(
    (await em.execute<{ id: number; document_category: string }[]>('select id, document_category from user_documents where user_id = ?', [delegate.ownerId])).map(
      (row) => [row.id, row.document_category],
    ),
  );
  const access = new Set(
    (await em.execute<{ property_id: number }[]>('select property_id from property_access where user_id = ?', [delegate.ownerId])).map((row) => row.property_id),
  );
  const { properties } = delegate;
  const coveredProperty = (propertyId: number | null) =>
    properties === 'all' ? propertyId === null || access.has(propertyId) : properties !== 'none' && propertyId !== null && access.has(propertyId) && properties.includes(propertyId);
  return {
    property: new Set(sweep.documents.property.filter((d) => coveredProperty(d.propertyId)).map((d) => d.id)),
    user: new Set(
      sweep.documents.user
        .filter((d) => d.userId === delegate.ownerId && (delegate.categories === 'all' || delegate.categories.includes(categories.get(d.id) ?? '')))
        .map((d) => d.id),
    ),
  };
}

/**
 * Sweeps every id as `email`: their own reads, or `through` a delegate's share, with
 * `?onBehalfOf=` on every call; the owner's read receipts then name the delegate.
 */
export async function sweepUser(sweep: Sweep, email: string, through?: Delegate): Promise<SweepFigures> {
  const { server } = sweep;
  const em = server.services.orm.em.fork();
  const delegateIndex = sweep.delegates.findIndex((d) => d === through);
  const address = through ? `198.18.2.${delegateIndex + 1}` : `198.18.0.${sweptUsers.findIndex((u) => u.email === email) + 1}`;
  const login = await server.api('/api/investor/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password: demoPassword }),
  });
  const { token, user } = loginAnswer.parse(await login.json());
  const [row] = await em.execute<{ id: number }[]>('select id from users where lower(email) = lower(?)', [email]);
  if (!row) throw new Error(`${email} has an account`);
  const userId = row.id;
  const mayRead = through ? await sharedReadable(sweep, through) : await ownReadable(sweep, userId, user.role);
  const onBehalf = through ? `&onBehalfOf=${through.ownerId}` : '';
  const headers = { authorization: `Bearer ${token}` };
  const mismatches: string[] = [];
  let calls = 0;

  const answerOf = async (res: Response): Promise<Answer> => ({ status: res.status, body: await res.text(), type: res.headers.get('content-type') });
  const download = async (kind: Kind, id: number, preview: boolean, range?: string) => {
    calls += 1;
    return answerOf(
      await server.api(`/api/investor/download/${id}?type=${kind}${preview ? '&preview=1' : ''}${onBehalf}`, { headers: { ...headers, ...(range ? { range } : {}) } }),
    );
  };
  // A read through a share is filed under its owner, naming the delegate (migration 20261127200000).
  const opensOf = async (kind: Kind, id: number) => {
    const [read] = await em.execute<{ opens: number }[]>(
      through
        ? 'select 1 as opens from document_reads where user_id = ? and document_type = ? and document_id = ? and ? = any(delegate_ids)'
        : 'select opens from document_reads where user_id = ? and document_type = ? and document_id = ?',
      through ? [through.ownerId, kind === 'user' ? 'personal' : 'property', id, userId] : [userId, kind === 'user' ? 'personal' : 'property', id],
    );
    return read?.opens ?? 0;
  };
  const link = async (kind: Kind, id: number) => {
    calls += 1;
    return answerOf(
      await server.api('/api/investor/document-link', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ id, type: kind, ...(through ? { onBehalfOf: through.ownerId } : {}) }),
      }),
    );
  };
  const same = (a: Answer, b: Answer) => a.status === b.status && a.body === b.body && a.type === b.type;

  // The list: exactly the readable documents (through a share that is not live, a 404).
  calls += 1;
  const listAnswer = await server.api(`/api/investor/documents${through ? `?onBehalfOf=${through.ownerId}` : ''}`, { headers });
  const listLive = listAnswer.status === 200;
  if (through && listLive !== through.live) mismatches.push(`list through a ${through.kind} share: ${listAnswer.status}`);
  const list = listLive ? investorDocumentsAnswer.parse(await listAnswer.json()).documents : (await listAnswer.text(), []);
  const listed = {
    property: list.filter((d) => d.documentType === 'property').map((d) => d.id).sort((a, b) => a - b),
    user: list.filter((d) => d.documentType === 'personal').map((d) => d.id).sort((a, b) => a - b),
  };
  for (const kind of ['property', 'user'] as const) {
    const expected = [...mayRead[kind]].sort((a, b) => a - b);
    if (JSON.stringify(listed[kind]) !== JSON.stringify(expected)) mismatches.push(`list ${kind}: ${JSON.stringify(listed[kind])} instead of ${JSON.stringify(expected)}`);
  }

  // What a document that does not exist answers, per call: every refusal must be the same.
  const missing = sweep.missingIds[0] ?? 0;
  const nothing = {
    preview: { property: await download('property', missing, true), user: await download('user', missing, true) },
    download: { property: await download('property', missing, false), user: await download('user', missing, false) },
    link: { property: await link('property', missing), user: await link('user', missing) },
  };
  for (const [call, byKind] of Object.entries(nothing)) {
    for (const [kind, answer] of Object.entries(byKind)) {
      if (answer.status !== 404) mismatches.push(`${call} ${kind} ${missing} (does not exist): ${answer.status} ${answer.body}`);
    }
  }

  // A read from the second byte serves the file, so it counts as an open. First,
  // before any whole read of the same document could stand in for it.
  const ranged = { property: await download('property', missing, false, 'bytes=1-'), user: await download('user', missing, false, 'bytes=1-') };
  // Each id on its own (its count before and after its one read), all of them at once.
  for (const kind of ['property', 'user'] as const) {
    await Promise.all(
      [...sweep.documents[kind].map((d) => d.id), ...sweep.missingIds].map(async (id) => {
        const before = mayRead[kind].has(id) ? await opensOf(kind, id) : 0;
        const answer = await download(kind, id, false, 'bytes=1-');
        if (!mayRead[kind].has(id)) {
          if (!same(answer, ranged[kind])) mismatches.push(`ranged ${kind} ${id} (not theirs): ${answer.status} ${answer.body.slice(0, 120)}`);
          return;
        }
        if (answer.status !== 206) mismatches.push(`ranged ${kind} ${id} (readable): ${answer.status} instead of 206`);
        const after = await opensOf(kind, id);
        if (before !== 0 || after !== 1) mismatches.push(`ranged ${kind} ${id}: read receipts counted ${before} → ${after} opens instead of 0 → 1`);
      }),
    );
  }

  const ids = {
    property: [...sweep.documents.property.map((d) => d.id), ...sweep.missingIds],
    user: [...sweep.documents.user.map((d) => d.id), ...sweep.missingIds],
  };
  for (const kind of ['property', 'user'] as const) {
    for (const id of ids[kind]) {
      const allowed = mayRead[kind].has(id);
      const [preview, saved, linked] = await Promise.all([download(kind, id, true), download(kind, id, false), link(kind, id)]);
      const answers = { preview, download: saved, link: linked };
      for (const [call, answer] of Object.entries(answers) as [keyof typeof answers, Answer][]) {
        if (allowed && answer.status !== 200) mismatches.push(`${call} ${kind} ${id} (readable): ${answer.status} ${answer.body.slice(0, 120)}`);
        if (!allowed && !same(answer, nothing[call][kind])) mismatches.push(`${call} ${kind} ${id} (not theirs): ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
  }
  const allowed = mayRead.property.size + mayRead.user.size;
  return {
    email,
    role: user.role,
    allowed,
    refused: sweep.documents.property.length + sweep.documents.user.length - allowed,
    calls,
    mismatches,
  };
}

export function formatSweep(sweep: Sweep, figures: SweepFigures[], ms: number, secondStep?: SecondStepSweep): string {
  const lines = [
    `documents in the database: ${sweep.documents.property.length} property, ${sweep.documents.user.length} personal; ids that do not exist: ${sweep.missingIds.join(', ')}`,
    `${'user'.padEnd(30)}${'role'.padEnd(18)}${'readable'.padStart(9)}${'refused'.padStart(9)}${'calls'.padStart(7)}${'wrong'.padStart(7)}`,
    ...figures.map(
      (f) =>
        `${f.email.padEnd(30)}${f.role.padEnd(18)}${String(f.allowed).padStart(9)}${String(f.refused).padStart(9)}${String(f.calls).padStart(7)}${String(f.mismatches.length).padStart(7)}`,
    ),
    `${figures.reduce((n, f) => n + f.calls, 0)} calls in ${ms} ms, ${figures.reduce((n, f) => n + f.mismatches.length, 0)} wrong answers`,
    ...(secondStep
      ? [
          `administrator without a second step (REQUIRE_SECOND_STEP=administrator): ${secondStep.calls} calls (list, every id as preview, download, ranged, ?token=, link, every version), ${secondStep.mismatches.length} not refused with 403`,
        ]
      : []),
  ];
  return lines.join('\n');
}

/** What the administrator without a second step met: each call with a wrong answer. */
export interface SecondStepSweep {
  calls: number;
  mismatches: string[];
}

/**
 * An administrator's password alone opened every K-1 through the investor
 * routes. With REQUIRE_SECOND_STEP=administrator (a second instance over the sweep's database),
 * the built-in administrator, who has not set one up, asks for the document list and for every
 * id of both kinds (and ids that do not exist, and every earlier version) through the preview,
 * the download, a ranged download, the document link and download-version: each must be
 * refused with 403 and the admin routes' own sentence, before anything is looked up.
 */
export async function sweepSecondStepMissing(sweep: Sweep): Promise<SecondStepSweep> {
  const strict = await startTestServer({ besides: sweep.server, env: { REQUIRE_SECOND_STEP: 'administrator' } });
  try {
    const login = await strict.api('/api/investor/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.1.1' },
      body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
    });
    const { token } = loginAnswer.parse(await login.json());
    const headers = { authorization: `Bearer ${token}` };
    const expected = JSON.stringify({ error: secondStepMissingMessage });
    const mismatches: string[] = [];
    let calls = 0;
    const check = async (what: string, res: Promise<Response>) => {
      calls += 1;
      const answer = await res;
      const body = await answer.text();
      if (answer.status !== 403 || body !== expected) mismatches.push(`${what}: ${answer.status} ${body.slice(0, 120)}`);
    };
    await check('list', strict.api('/api/investor/documents', { headers }));
    for (const kind of ['property', 'user'] as const) {
      for (const id of [...sweep.documents[kind].map((d) => d.id), ...sweep.missingIds]) {
        await Promise.all([
          check(`preview ${kind} ${id}`, strict.api(`/api/investor/download/${id}?type=${kind}&preview=1`, { headers })),
          check(`download ${kind} ${id}`, strict.api(`/api/investor/download/${id}?type=${kind}`, { headers })),
          check(`ranged ${kind} ${id}`, strict.api(`/api/investor/download/${id}?type=${kind}`, { headers: { ...headers, range: 'bytes=1-' } })),
          check(`download as ?token= ${kind} ${id}`, strict.api(`/api/investor/download/${id}?type=${kind}&token=${token}`)),
          check(
            `link ${kind} ${id}`,
            strict.api('/api/investor/document-link', {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ id, type: kind }),
            }),
          ),
        ]);
      }
    }
    for (const id of [...sweep.versionIds, ...sweep.missingIds]) {
      await check(`version ${id}`, strict.api(`/api/investor/download-version/${id}`, { headers }));
    }
    return { calls, mismatches };
  } finally {
    await strict.close();
  }
}
