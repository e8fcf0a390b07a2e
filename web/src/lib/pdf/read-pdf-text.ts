// The text of an untrusted PDF, page by page, read with PDF.js and nothing else: no fonts fetched,
// no scripts, no rendering. Content matching reads only words, so a page's text is its text items
// joined as PDF.js lays them out. The limits here are the ones a reader can keep by itself (bytes,
// pages, time between pages); the host runs this in a worker it can end, which is what holds a
// page that never finishes, and in Node it caps the worker's memory too.

import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { maxDocumentBytes, megabyte } from '@everest/core/domain';

export interface PdfLimits {
  /** Bytes of one PDF: a combined PDF of every partner's K-1 is far larger than one document. */
  maxBytes: number;
  maxPages: number;
  /** Milliseconds for the whole file, checked between pages. */
  maxMilliseconds: number;
}

/** One partner's K-1 is one to a few pages; a combined PDF a few pages per partner. */
export const pdfLimits = {
  single: { maxBytes: maxDocumentBytes, maxPages: 100, maxMilliseconds: 15_000 },
  combined: { maxBytes: 200 * megabyte, maxPages: 10_000, maxMilliseconds: 120_000 },
} as const satisfies Record<string, PdfLimits>;

/** The memory a host gives one PDF's reader (Node's worker resourceLimits). */
export const pdfReaderMemoryMegabytes = 512;

export type PdfText = { kind: 'text'; pages: string[] } | { kind: 'unreadable'; reason: string };

export const pdfReadingMessages = {
  tooLarge: (limit: number) => `This PDF is larger than ${Math.round(limit / megabyte)} MB, more than a K-1 batch needs: name its investor, or split it first`,
  tooManyPages: (pages: number, limit: number) => `This PDF has ${pages} pages, more than the ${limit} read for matching: name its investor, or split it first`,
  tooSlow: 'This PDF took too long to read: name its investor',
  tooMuchMemory: 'This PDF needed too much memory to read: name its investor',
  password: 'This PDF asks for a password, so its text cannot be read: name its investor, or ask for a copy without one',
  damaged: 'This PDF is damaged or is not a PDF, so its text cannot be read: name its investor',
} as const;

type Pdfjs = typeof PdfjsModule;
let pdfjs: Promise<Pdfjs> | null = null;

/**
 * PDF.js, with its worker code run in this thread: the caller is a worker already (a Web Worker
 * in the browser, a worker thread in the desktop), and a bundler need not find a second file.
 */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= (async () => {
    const scope = globalThis as { pdfjsWorker?: unknown };
    scope.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjs;
}

class OverTime extends Error {}

/** Each page's text, or the sentence saying why it cannot be read. Never throws for a bad file. */
export async function readPdfText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
  if (bytes.byteLength > limits.maxBytes) return { kind: 'unreadable', reason: pdfReadingMessages.tooLarge(limits.maxBytes) };
  const { getDocument, PasswordException } = await loadPdfjs();
  const deadline = performance.now() + limits.maxMilliseconds;
  // PDF.js takes the buffer over: give it a copy, so the caller can still split or upload the bytes.
  const task = getDocument({
    data: bytes.slice(),
    disableFontFace: true,
    useWorkerFetch: false,
    useWasm: false,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const document = await task.promise;
    if (document.numPages > limits.maxPages) {
      return { kind: 'unreadable', reason: pdfReadingMessages.tooManyPages(document.numPages, limits.maxPages) };
    }
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      if (performance.now() > deadline) throw new OverTime();
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      page.cleanup();
    }
    return { kind: 'text', pages };
  } catch (error) {
    if (error instanceof OverTime) return { kind: 'unreadable', reason: pdfReadingMessages.tooSlow };
    if (error instanceof PasswordException) return { kind: 'unreadable', reason: pdfReadingMessages.password };
    return { kind: 'unreadable', reason: pdfReadingMessages.damaged };
  } finally {
    await task.destroy();
  }
}
