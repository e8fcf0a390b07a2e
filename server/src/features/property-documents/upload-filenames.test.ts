import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPropertyAnswer, bulkUploadPersonalDocumentsAnswer, documentAnswer, errorAnswer, propertyAnswer, personalDocumentAnswer } from '@everest/core/contract';
import { currentYear } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { PropertyDocument } from './property-document.entity';
import { PersonalDocument } from '../personal-documents/personal-document.entity';

// Every upload route with the file names an intruder, a Windows path, a Mac or a careless
// script sends. A name is written into the multipart header as browsers write it (raw UTF-8,
// `"` as %22, CR and LF as %0D %0A) or as RFC 5987's filename*.

const admin = 'admin@example.com';
const investor = 'investor@example.com';

interface OddName {
  what: string;
  /** The Content-Disposition parameter as sent: `filename="…"` or `filename*=…`. */
  param: string;
  /** The name stored and answered, or the refusal (status and sentence). */
  expected: { stored: string } | { status: number; error: RegExp };
}

const quoted = (name: string) => `filename="${name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

const oddNames: OddName[] = [
  { what: 'a path up to /etc', param: quoted('../../etc/passwd.pdf'), expected: { stored: 'passwd.pdf' } },
  { what: 'a Windows path', param: quoted('..\\..\\Windows\\system.pdf'), expected: { stored: 'system.pdf' } },
  { what: 'an encoded path (RFC 5987)', param: "filename*=UTF-8''..%2F..%2Fencoded.pdf", expected: { stored: 'encoded.pdf' } },
  { what: 'accented letters as browsers send them (raw UTF-8)', param: quoted('Relevé été 2025.pdf'), expected: { stored: 'Relevé été 2025.pdf' } },
  { what: 'the decomposed twin of the same name (macOS, NFD)', param: quoted('Relevé été 2025.pdf'.normalize('NFD')), expected: { stored: 'Relevé été 2025.pdf' } },
  { what: 'a right-to-left override hiding the real extension', param: quoted('Statement\u202Efdp.pdf'), expected: { stored: 'Statementfdp.pdf' } },
  { what: 'other bidirectional marks', param: quoted('\u2066K-1\u2069\u200F.pdf'), expected: { stored: 'K-1.pdf' } },
  { what: 'a tab and a line break', param: quoted('tab\there\r\n.pdf'), expected: { stored: 'tabhere%0D%0A.pdf' } },
  { what: 'quotes', param: quoted('"quoted" name.pdf'), expected: { stored: '%22quoted%22 name.pdf' } },
  { what: 'a NUL byte', param: quoted('a\u0000b.pdf'), expected: { status: 400, error: /could not be read/ } },
  { what: 'an escape sequence', param: quoted('\u001b[31mred.pdf'), expected: { status: 400, error: /could not be read/ } },
  { what: '1,000 characters', param: quoted(`${'x'.repeat(1000)}.pdf`), expected: { status: 400, error: /255 characters or fewer/ } },
  { what: 'a name of only a parent folder', param: quoted('..'), expected: { status: 400, error: /^The file has no name/ } },
  { what: 'a name of only invisible marks', param: quoted('\u202E\u200F'), expected: { status: 400, error: /^The file has no name/ } },
  { what: 'an empty name', param: quoted(''), expected: { status: 400, error: /^The file has no name/ } },
];

/** A multipart body written by hand, so the file name's bytes are exactly what is sent. */
function multipart(fields: Record<string, string>, field: string, param: string, bytes: Buffer): { body: Buffer; type: string } {
  const boundary = `----everest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ${param}\r\nContent-Type: application/octet-stream\r\n\r\n`), bytes);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** RFC 6266 with RFC 5987's filename*: an ASCII fallback without quotes, escapes or %, then the exact name. */
const safeDisposition = /^(attachment|inline); filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]*$/;

function nameOfDisposition(header: string): { fallback: string; exact: string } {
  const fallback = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
  return { fallback, exact: decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)?.[1] ?? '') };
}

/** What a stored name must never hold: folders, control characters, bidirectional marks, a decomposed form. */
function expectSafeName(name: string): void {
  expect(name).not.toMatch(/[\\/]/);
  expect(name).not.toMatch(/\p{Cc}/u);
  expect(name).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
  expect(name).toBe(name.normalize('NFC'));
  expect(name.trim()).not.toBe('');
}

describe('uploads with odd file names', () => {
  let server: TestServer;
  const tokens = new Map<string, string>();
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    const client = recordingClient(server);
    for (const email of [admin, investor]) tokens.set(email, await client.signIn(email));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function send(route: string, fields: Record<string, string>, field: string, param: string, bytes = samplePdf(`odd ${(n += 1)}`)) {
    const { body, type } = multipart(fields, field, param, bytes);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${tokens.get(admin)}`, 'content-type': type }, body });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  async function expectSafeDownload(id: number, type: 'property' | 'user', stored: string): Promise<void> {
    const res = await server.api(`/api/investor/download/${id}?type=${type}`, { headers: { authorization: `Bearer ${tokens.get(type === 'user' ? investor : admin)}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const header = res.headers.get('content-disposition') ?? '';
    expect(header).toMatch(safeDisposition);
    const { fallback, exact } = nameOfDisposition(header);
    expect(exact).toBe(stored);
    expect(fallback).not.toMatch(/["\\%]/);
  }

  function expectRefusal(res: { status: number; json: unknown; text: string }, expected: { status: number; error: RegExp }): void {
    expect(res.status, res.text).toBe(expected.status);
    expect(errorAnswer.parse(res.json).error).toMatch(expected.error);
  }

  const year = String(currentYear());

  describe.each(oddNames)('$what', ({ param, expected }) => {
    it('upload-document stores a safe name, or refuses with a sentence; the download names it safely', async () => {
      const res = await send('/api/admin/upload-document', { title: `Odd ${n}`, property: 'General', year, quarter: 'Q1' }, 'document', param);
      if ('status' in expected) return expectRefusal(res, expected);
      expect(res.status, res.text).toBe(200);
      const { document } = documentAnswer.parse(res.json);
      expect(document.filename).toBe(expected.stored);
      expectSafeName((await server.services.orm.em.fork().findOneOrFail(PropertyDocument, document.id)).filename);
      await expectSafeDownload(document.id, 'property', expected.stored);
    });

    it('upload-user-document stores a safe name, or refuses with a sentence', async () => {
      const res = await send('/api/admin/upload-user-document', { userEmail: investor, title: `Odd ${n}`, documentCategory: 'tax' }, 'document', param);
      if ('status' in expected) return expectRefusal(res, expected);
      expect(res.status, res.text).toBe(200);
      const { document } = personalDocumentAnswer.parse(res.json);
      expect(document.filename).toBe(expected.stored);
      expectSafeName((await server.services.orm.em.fork().findOneOrFail(PersonalDocument, document.id)).filename);
      await expectSafeDownload(document.id, 'user', expected.stored);
    });

    it('replace-document and replace-user-document store a safe name, or refuse with a sentence', async () => {
      const property = await send('/api/admin/upload-document', { title: `To replace ${n}`, property: 'General', year, quarter: 'Q2' }, 'document', quoted('plain.pdf'));
      const personal = await send('/api/admin/upload-user-document', { userEmail: investor, title: `To replace ${n}`, documentCategory: 'tax' }, 'document', quoted('plain.pdf'));
      const propertyId = documentAnswer.parse(property.json).document.id;
      const personalId = personalDocumentAnswer.parse(personal.json).document.id;
      for (const [route, id] of [
        ['/api/admin/replace-document', propertyId],
        ['/api/admin/replace-user-document', personalId],
      ] as const) {
        const res = await send(`${route}/${id}`, {}, 'document', param);
        if ('status' in expected) {
          expectRefusal(res, expected);
          continue;
        }
        expect(res.status, res.text).toBe(200);
        expect((res.json as { document: { filename: string } }).document.filename).toBe(expected.stored);
      }
    });

    it('bulk-upload-user-documents matches the manifest row to the file by its safe name, or fails its row with a sentence', async () => {
      const stored = 'stored' in expected ? expected.stored : 'unmatched.pdf';
      const manifest = `email,filename,document_category,title\n${investor},"${stored.replace(/"/g, '""')}",tax,Bulk odd ${(n += 1)}\n`;
      const parts = multipart({ csvManifest: manifest }, 'documents', param, samplePdf(`bulk odd ${n}`));
      const res = await server.api('/api/admin/bulk-upload-user-documents', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get(admin)}`, 'content-type': parts.type },
        body: parts.body,
      });
      const text = await res.text();
      if ('status' in expected && expected.status === 400 && /could not be read/.test(expected.error.source)) {
        return expectRefusal({ status: res.status, text, json: JSON.parse(text) }, expected);
      }
      expect(res.status, text).toBe(200);
      const answer = bulkUploadPersonalDocumentsAnswer.parse(JSON.parse(text));
      if ('stored' in expected) {
        expect(answer.successful.map((s) => s.filename)).toEqual([expected.stored]);
      } else {
        expect(answer.successful).toEqual([]);
        for (const name of [...answer.failed.map((f) => f.filename), ...answer.unprocessed]) expect(name).not.toMatch(/[\\/\p{Cc}]/u);
      }
    });

    it('update-property takes the photo by its content whatever its name, or refuses with a sentence', async () => {
      if ('status' in expected && /too long|255/.test(expected.error.source)) return; // photos keep no name: a long one is fine
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: `#${(n % 255).toString(16).padStart(2, '0')}8888` } })
        .png()
        .toBuffer();
      const property = adminPropertyAnswer.parse(await (await server.api('/api/admin/property/1', { headers: { authorization: `Bearer ${tokens.get(admin)}` } })).json());
      const fields = Object.fromEntries(
        Object.entries(property.property)
          .filter(([key, value]) => value !== null && typeof value !== 'object' && key !== 'photoUrl')
          .map(([key, value]) => [key, String(value)]),
      );
      const res = await send('/api/admin/update-property', fields, 'image', param, png);
      if ('status' in expected && !/no name/.test(expected.error.source)) return expectRefusal(res, expected);
      expect(res.status, res.text).toBe(200);
      propertyAnswer.parse(res.json);
    });
  });

  it('writes nothing outside the store: every file under DATA_DIR is a content-addressed file or a folder of the store', () => {
    const root = server.services.config.dataDir;
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
    const odd = files.filter((file) => !/^files\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$|^[\w.-]+$/.test(file));
    expect(odd).toEqual([]);
    expect(files.some((file) => /passwd|system|encoded|fdp/.test(file))).toBe(false);
  });
});
