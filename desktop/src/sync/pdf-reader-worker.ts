// One worker thread of the PDF reader pool (pdf-reader-pool.ts): it reads a PDF's text or cuts
// it into sections with the web package's reader and cutter, one job at a time. It runs under
// the memory limit its pool gave it and is ended from outside when a job takes too long, so a
// hostile PDF costs this thread, never the sync.

import { parentPort } from 'node:worker_threads';
import { readPdfText, splitPdf, SplitRefused } from '@everest/web/pdf';
import type { WorkerAnswer, WorkerJob } from './pdf-reader-pool';

const port = parentPort;
if (!port) throw new Error('pdf-reader-worker runs in a worker thread of the PDF reader pool.');

// PDF.js is loaded before the worker says it is ready: a job's time limit counts reading, not
// loading the reader (seconds under tsx on a busy machine).
await readPdfText(new Uint8Array(0), { maxBytes: 0, maxPages: 0, maxMilliseconds: 0 });
await readPdfText(new Uint8Array([0x25]), { maxBytes: 1, maxPages: 0, maxMilliseconds: 0 });
port.postMessage({ kind: 'ready' } satisfies WorkerAnswer);

port.on('message', (job: WorkerJob) => {
  void answer(job).then((result) => {
    const transfer = result.kind === 'sections' ? result.parts.map((part) => part.buffer as ArrayBuffer) : [];
    port.postMessage(result, transfer);
  });
});

async function answer(job: WorkerJob): Promise<WorkerAnswer> {
  if (job.kind === 'read') {
    const read = await readPdfText(job.bytes, job.limits);
    return read.kind === 'text' ? { kind: 'text', pages: read.pages } : { kind: 'unreadable', reason: read.reason };
  }
  try {
    return { kind: 'sections', parts: await splitPdf(job.bytes, job.sections) };
  } catch (error) {
    if (error instanceof SplitRefused) return { kind: 'unreadable', reason: error.message };
    return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
  }
}
