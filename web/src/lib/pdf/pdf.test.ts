import { textPdf } from '@everest/fixtures/k1';
import { describe, expect, it } from 'vitest';
import { pdfReadingMessages, readPdfText, splitPdf, SplitRefused, splitMessages, type PdfLimits } from './index';


const roomy: PdfLimits = { maxBytes: 10_000_000, maxPages: 50, maxMilliseconds: 30_000 };

describe('reading a PDF for content matching', () => {
  it("reads each page's text, a line per line, with typed punctuation as typed", async () => {
    const bytes = await textPdf(["Schedule K-1 (Form 1065) 2025\nPartner's name: O'Brien Family Trust", 'Continuation statement']);
    const read = await readPdfText(bytes, roomy);
    expect(read.kind).toBe('text');
    if (read.kind !== 'text') return;
    expect(read.pages).toHaveLength(2);
    expect(read.pages[0]).toMatch(/Schedule K-1 \(Form 1065\) 2025\s+Partner's name: O'Brien Family Trust/);
    expect(read.pages[1]).toContain('Continuation statement');
    // The caller's bytes are left whole for splitting and uploading.
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect((await readPdfText(bytes, roomy)).kind).toBe('text');
  });

  it('reads a page with nothing drawn as empty text, for the rule to call it a scan', async () => {
    const read = await readPdfText(await textPdf(['']), roomy);
    expect(read).toEqual({ kind: 'text', pages: [''] });
  });

  it('refuses, with a sentence, a file past its byte or page limit, and one that is not a PDF', async () => {
    const three = await textPdf(['a', 'b', 'c']);
    expect(await readPdfText(three, { ...roomy, maxPages: 2 })).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooManyPages(3, 2) });
    expect(await readPdfText(three, { ...roomy, maxBytes: 100 })).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooLarge(100) });
    expect(await readPdfText(new TextEncoder().encode('%PDF-1.7\nnot really'), roomy)).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.damaged });
    const cut = three.slice(0, Math.floor(three.byteLength / 3));
    expect((await readPdfText(cut, roomy)).kind).toBe('unreadable');
  });

  it('stops reading between pages once its time is up', async () => {
    const many = await textPdf(Array.from({ length: 40 }, (_, i) => `Page ${i + 1}`));
    expect(await readPdfText(many, { ...roomy, maxMilliseconds: 0 })).toEqual({ kind: 'unreadable', reason: pdfReadingMessages.tooSlow });
  });
});

describe('cutting a combined PDF', () => {
  it('makes one PDF per section holding exactly its pages, in order', async () => {
    const combined = await textPdf(['Jane Investor p1', 'Jane Investor p2', 'John Smith p1', 'Bob Lee p1']);
    const parts = await splitPdf(combined, [[1, 2], [3], [4]]);
    const texts = await Promise.all(parts.map(async (part) => {
      const read = await readPdfText(part, roomy);
      return read.kind === 'text' ? read.pages.map((p) => p.trim()) : [read.reason];
    }));
    expect(texts).toEqual([['Jane Investor p1', 'Jane Investor p2'], ['John Smith p1'], ['Bob Lee p1']]);
  });

  it('refuses pages that are not there, and a file that is not a PDF', async () => {
    const combined = await textPdf(['a', 'b']);
    await expect(splitPdf(combined, [[2, 3]])).rejects.toThrow(RangeError);
    await expect(splitPdf(combined, [[]])).rejects.toThrow(RangeError);
    const refused = await splitPdf(new TextEncoder().encode('not a pdf'), [[1]]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SplitRefused);
    expect((refused as Error).message).toBe(splitMessages.damaged);
  });
});
