// The PDF reader pool on real PDFs made here (the fixtures' textPdf), read by PDF.js in real worker threads:
// text and sections come back whole, and a damaged, slow or greedy file ends as a sentence
// without stopping the pool.

import { textPdf } from '@everest/fixtures/k1';
import { afterEach, describe, expect, it } from 'vitest';
import { pdfLimits, pdfReadingMessages } from '@everest/web/pdf';
import { PdfReaderPool } from './pdf-reader-pool';


const pools: PdfReaderPool[] = [];
function pool(options: ConstructorParameters<typeof PdfReaderPool>[0] = {}): PdfReaderPool {
  const made = new PdfReaderPool(options);
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const texts = (read: Awaited<ReturnType<PdfReaderPool['read']>>) => (read.kind === 'text' ? read.pages.map((page) => page.trim()) : [read.reason]);

describe('the PDF reader pool', () => {
  it('reads many PDFs at once in its workers, each its own pages, and leaves the caller its bytes', async () => {
    const readers = pool({ size: 2 });
    const files = await Promise.all(Array.from({ length: 6 }, (_, i) => textPdf([`Schedule K-1 partner ${i}`, `Continuation ${i}`])));
    const sizes = files.map((f) => f.byteLength);
    const reads = await Promise.all(files.map((bytes) => readers.read(bytes, pdfLimits.single)));
    expect(reads.map(texts)).toEqual(files.map((_, i) => [`Schedule K-1 partner ${i}`, `Continuation ${i}`]));
    expect(files.map((f) => f.byteLength)).toEqual(sizes);
    expect(readers.started).toBe(2);
  }, 90_000);

  it('gives a damaged file its sentence and goes on with the next', async () => {
    const readers = pool({ size: 1 });
    const whole = await textPdf(['Jane Investor']);
    expect(await readers.read(new TextEncoder().encode('%PDF-1.7\nnot really a PDF\n%%EOF\n'), pdfLimits.single)).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.damaged });
    expect(await readers.read(whole.slice(0, Math.floor(whole.byteLength / 3)), pdfLimits.single)).toMatchObject({ kind: 'unreadable' });
    expect(texts(await readers.read(whole, pdfLimits.single))).toEqual(['Jane Investor']);
  });

  it('ends a worker that outlives its time limit, says the file took too long, and replaces the worker', async () => {
    // A margin that leaves 30 ms: the reader's own check between pages would allow 10 s.
    const readers = pool({ size: 1, marginMs: -9_970 });
    const long = await textPdf(Array.from({ length: 400 }, (_, i) => `Page ${i + 1}`));
    expect(await readers.read(long, { ...pdfLimits.combined, maxMilliseconds: 10_000 })).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooSlow });
    const patient = pool({ size: 1 });
    expect(texts(await patient.read(await textPdf(['After']), pdfLimits.single))).toEqual(['After']);
    // The ended worker was replaced: the pool still answers.
    expect(await readers.read(long, { ...pdfLimits.combined, maxMilliseconds: 10_000 })).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooSlow });
    expect(readers.started).toBe(2);
  }, 90_000);

  it('says a file needed too much memory when its worker runs out, and does not stop the pool', async () => {
    // 16 MB holds neither PDF.js nor a page: the limit is the pool's, not V8's default. A heap
    // limit set between a worker's own needs and a file's is not exact enough to test by (the
    // worker's needs differ between tsx, vitest and the built app).
    const starved = pool({ size: 1, memoryMegabytes: 16 });
    const file = await textPdf(['Jane Investor']);
    expect(await starved.read(file, pdfLimits.single)).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooMuchMemory });
    expect(await starved.read(file, pdfLimits.single)).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooMuchMemory });
    expect(starved.started).toBe(2);
    expect(texts(await pool({ size: 1 }).read(file, pdfLimits.single))).toEqual(['Jane Investor']);
  }, 90_000);

  it('cuts a combined PDF into one PDF per section, each holding exactly its pages', async () => {
    const readers = pool({ size: 1 });
    const combined = await textPdf(['Jane p1', 'Jane p2', 'John p1', 'Bob p1']);
    const cut = await readers.split(combined, [[1, 2], [3], [4]]);
    if (cut.kind !== 'sections') throw new Error(cut.reason);
    expect((await Promise.all(cut.parts.map((part) => readers.read(part, pdfLimits.single)))).map(texts)).toEqual([['Jane p1', 'Jane p2'], ['John p1'], ['Bob p1']]);
    expect(await readers.split(new TextEncoder().encode('not a pdf'), [[1]])).toMatchObject({ kind: 'unreadable' });
  });
});
