import { pdfLimits, pdfReadingMessages, type PdfLimits, type PdfText } from '../../../lib/pdf';

// Match by content reads K-1s where they are, in the browser: each PDF's text in a Web Worker,
// a few at a time, so that the page stays answerable while hundreds are read, and a PDF that
// never finishes a page costs only its worker, ended at the time limit. Cutting a combined PDF
// into one PDF per investor runs in a worker too. Only the text comes back to the page.

export type PdfRequest =
  | { kind: 'read'; bytes: ArrayBuffer; limits: PdfLimits }
  | { kind: 'split'; bytes: ArrayBuffer; sections: number[][] };

/**
 * PDF.js's worker code, imported in a Web Worker, also serves the page as PDF.js's own worker and
 * says 'ready' to it: the worker's replies carry `reply` so that the page hears only them.
 */
export type PdfReply = { reply: true } & (
  | { kind: 'read'; text: PdfText }
  | { kind: 'split'; parts: ArrayBuffer[] }
  | { kind: 'split-refused'; message: string }
);

/** A worker's whole time for one PDF: the reader's own limit, checked between pages, and then some. */
const watchdogMilliseconds = (limits: PdfLimits) => limits.maxMilliseconds + 5_000;

/**
 * The limits a chosen PDF is read under: a combined PDF of every partner is the only PDF chosen,
 * or one larger than a single document may be; any other is one partner's K-1.
 */
export function limitsFor(file: Blob, pdfsChosen: number): PdfLimits {
  return pdfsChosen === 1 || file.size > pdfLimits.single.maxBytes ? pdfLimits.combined : pdfLimits.single;
}

const startWorker = () => new Worker(new URL('./pdf-reading.worker.ts', import.meta.url), { type: 'module' });

/** One request to a worker: its reply, or 'lost' when the worker crashed or took longer than `watchdog` ms. */
function ask(worker: Worker, request: PdfRequest, watchdog: number, transfer: Transferable[]): Promise<PdfReply | 'lost'> {
  return new Promise((resolve) => {
    const done = (reply: PdfReply | 'lost') => {
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      resolve(reply);
    };
    const onMessage = (event: MessageEvent<PdfReply | undefined>) => {
      if (event.data?.reply === true) done(event.data);
    };
    const onError = (event: Event) => {
      event.preventDefault();
      done('lost');
    };
    const timer = setTimeout(() => done('lost'), watchdog);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.postMessage(request, transfer);
  });
}

/**
 * Every PDF's text, in the order given, `parallel` at a time; `onProgress` gets the share done.
 * A PDF its worker could not finish within the time limit, or that crashed it, is unreadable with
 * a sentence, and the worker is replaced. Never throws for a bad file. Without workers (unit
 * tests) the PDFs are read on the page.
 */
export async function readPdfs(
  files: readonly { file: Blob; limits: PdfLimits }[],
  onProgress?: (fraction: number) => void,
  parallel = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)),
): Promise<PdfText[]> {
  const texts = new Array<PdfText>(files.length);
  if (typeof Worker === 'undefined') {
    const { readPdfText } = await import('../../../lib/pdf');
    for (const [index, { file, limits }] of files.entries()) {
      texts[index] = await readPdfText(new Uint8Array(await file.arrayBuffer()), limits);
      onProgress?.((index + 1) / files.length);
    }
    return texts;
  }
  let next = 0;
  let done = 0;
  const lane = async () => {
    let worker = startWorker();
    try {
      while (next < files.length) {
        const index = next;
        next += 1;
        const { file, limits } = files[index]!;
        const bytes = await file.arrayBuffer();
        if (bytes.byteLength > limits.maxBytes) {
          texts[index] = { kind: 'unreadable', reason: pdfReadingMessages.tooLarge(limits.maxBytes) };
        } else {
          const reply = await ask(worker, { kind: 'read', bytes, limits }, watchdogMilliseconds(limits), [bytes]);
          if (reply === 'lost') {
            worker.terminate();
            worker = startWorker();
          }
          texts[index] = reply !== 'lost' && reply.kind === 'read' ? reply.text : { kind: 'unreadable', reason: pdfReadingMessages.tooSlow };
        }
        done += 1;
        onProgress?.(done / files.length);
      }
    } finally {
      worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, lane));
  return texts;
}

/** A combined PDF cut into one PDF per section (1-based pages), in a worker; throws the sentence when it cannot be cut. */
export async function splitPdfFile(file: Blob, sections: number[][]): Promise<Uint8Array[]> {
  const bytes = await file.arrayBuffer();
  if (typeof Worker === 'undefined') {
    const { splitPdf } = await import('../../../lib/pdf');
    return splitPdf(new Uint8Array(bytes), sections);
  }
  const worker = startWorker();
  try {
    const reply = await ask(worker, { kind: 'split', bytes, sections }, pdfLimits.combined.maxMilliseconds, [bytes]);
    if (reply === 'lost') throw new Error('Cutting this PDF took too long or needed too much memory.');
    if (reply.kind === 'split-refused') throw new Error(reply.message);
    if (reply.kind !== 'split') throw new Error('Cutting this PDF gave no answer.');
    return reply.parts.map((part) => new Uint8Array(part));
  } finally {
    worker.terminate();
  }
}
