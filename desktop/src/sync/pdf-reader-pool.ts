// Untrusted PDFs read and cut in worker threads, a few at a time. PDF.js keeps the limits it can
// keep by itself (bytes, pages, time between pages: readPdfText); what it cannot keep is kept
// here: each worker runs with a memory limit (resourceLimits), a job that outlives its time limit
// (plus a margin for a page that never finishes) has its worker ended, and a worker that dies is
// replaced. Each of those ends the file's job with the reader's own sentence, so the file needs a
// person and the sync goes on.

import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { pdfReaderMemoryMegabytes, pdfReadingMessages, type PdfLimits, type PdfText } from '@everest/web/pdf';

/** What a worker is asked (pdf-reader-worker.ts). */
export type WorkerJob =
  | { kind: 'read'; bytes: Uint8Array; limits: PdfLimits }
  | { kind: 'split'; bytes: Uint8Array; sections: number[][] };

/** What a worker answers. */
export type WorkerAnswer = { kind: 'ready' } | { kind: 'text'; pages: string[] } | { kind: 'sections'; parts: Uint8Array[] } | { kind: 'unreadable'; reason: string };

/** One PDF per section, or why the PDF could not be cut. */
export type PdfSections = { kind: 'sections'; parts: Uint8Array[] } | { kind: 'unreadable'; reason: string };

export interface PdfReaderPoolOptions {
  /** Workers at once (default: the CPUs this process may use). */
  size?: number;
  /** Each worker's V8 heap, in MB (default pdfReaderMemoryMegabytes). */
  memoryMegabytes?: number;
  /** Past a job's own time limit, how long its worker may still take before it is ended (default 2 s). */
  marginMs?: number;
  /** The worker's file (default: beside this module, from source or built); the bench passes the built one. */
  worker?: URL;
}

interface Job {
  message: WorkerJob;
  /** When the worker is ended if it has not answered. */
  timeLimitMs: number;
  settle: (answer: WorkerAnswer) => void;
}

interface Slot {
  worker: Worker;
  /** True once PDF.js is loaded: only then is it given a job, whose time starts then. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The worker's file. From source (tsx, vitest) this module is a .ts file and the worker starts
 * with a JavaScript file that registers tsx first; in the built app (electron-vite's main bundle,
 * whose second entry is the worker: electron.vite.config.ts) both are JavaScript, side by side in
 * out/main.
 */
function workerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './pdf-reader-worker-from-source.mjs' : './pdf-reader-worker.js', import.meta.url);
}

/** The time a split is given: as long as reading a combined PDF may take. */
const splitTimeLimitMs = 120_000;

export class PdfReaderPool {
  readonly size: number;
  private readonly memoryMegabytes: number;
  private readonly marginMs: number;
  private readonly worker: URL;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  /** Workers started, replacements included. */
  started = 0;

  constructor(options: PdfReaderPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism());
    this.memoryMegabytes = options.memoryMegabytes ?? pdfReaderMemoryMegabytes;
    this.marginMs = options.marginMs ?? 2_000;
    this.worker = options.worker ?? workerUrl();
  }

  /** Each page's text, or why it cannot be read; never throws for a bad file. */
  async read(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
    const answer = await this.run({ kind: 'read', bytes, limits }, limits.maxMilliseconds);
    if (answer.kind === 'sections' || answer.kind === 'ready') throw new Error('The PDF reader answered a read with sections.');
    return answer;
  }

  /** One PDF per section (1-based pages), cut in a worker as reading is; never throws for a bad file. */
  async split(bytes: Uint8Array, sections: readonly (readonly number[])[]): Promise<PdfSections> {
    const answer = await this.run({ kind: 'split', bytes, sections: sections.map((pages) => [...pages]) }, splitTimeLimitMs);
    if (answer.kind === 'text' || answer.kind === 'ready') throw new Error('The PDF reader answered a split with text.');
    return answer;
  }

  /** Ends every worker; jobs not yet answered end as too slow. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.settle({ kind: 'unreadable', reason: pdfReadingMessages.tooSlow });
    await Promise.all(this.slots.splice(0).map((slot) => this.end(slot, pdfReadingMessages.tooSlow)));
  }

  private run(message: WorkerJob, limitMs: number): Promise<WorkerAnswer> {
    if (this.closed) return Promise.resolve({ kind: 'unreadable', reason: pdfReadingMessages.tooSlow });
    return new Promise((settle) => {
      this.queue.push({ message, timeLimitMs: limitMs + this.marginMs, settle });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && s.job === null);
      if (!slot) break;
      this.give(slot, this.queue.shift()!);
    }
    // A worker started for each job waiting beyond those still loading, up to the pool's size.
    for (let starting = this.slots.filter((s) => !s.ready).length; starting < this.queue.length && this.slots.length < this.size; starting += 1) this.spawn();
  }

  private spawn(): void {
    // The worker's console (PDF.js's warnings about fonts and canvas, which may quote a PDF) is
    // not the sync's log: it is read and dropped.
    const worker = new Worker(this.worker, { stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: this.memoryMegabytes } });
    worker.stdout.resume();
    worker.stderr.resume();
    this.started += 1;
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    this.slots.push(slot);
    worker.on('message', (answer: WorkerAnswer) => {
      if (answer.kind !== 'ready') return this.finish(slot, answer);
      slot.ready = true;
      worker.unref();
      this.pump();
    });
    let outOfMemory = false;
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') outOfMemory = true;
    });
    // A worker that ends other than by close() was ended past its time limit, ran out of memory or
    // crashed: its job ends with that sentence and the worker is replaced by the next pump.
    worker.on('exit', () => {
      const index = this.slots.indexOf(slot);
      if (index !== -1) this.slots.splice(index, 1);
      const reason = outOfMemory ? pdfReadingMessages.tooMuchMemory : pdfReadingMessages.damaged;
      // A worker that dies before it is ready (too little memory to load PDF.js) fails the next
      // file rather than being started again for ever.
      if (!slot.ready && !this.closed) this.queue.shift()?.settle({ kind: 'unreadable', reason });
      this.finish(slot, { kind: 'unreadable', reason });
      if (!this.closed) this.pump();
    });
  }

  private give(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => void this.end(slot, pdfReadingMessages.tooSlow), job.timeLimitMs);
    // A copy goes to the worker: the caller keeps its bytes to cut or upload them.
    slot.worker.postMessage(job.message);
  }

  private finish(slot: Slot, answer: WorkerAnswer): void {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    // An idle worker does not keep the process alive.
    slot.worker.unref();
    job?.settle(answer);
    if (!this.closed) this.pump();
  }

  /** Ends a worker, its job (if any) answered with `reason`. */
  private async end(slot: Slot, reason: string): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    this.finish(slot, { kind: 'unreadable', reason });
    await slot.worker.terminate();
  }
}
