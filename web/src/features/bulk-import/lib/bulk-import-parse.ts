import type { BulkImportCsvOptions, BulkImportCsvParse } from '@everest/core/domain';

/** What the page hands the parsing worker: the file's bytes (transferred, not copied) and the options. */
export interface ImportParseRequest {
  bytes: ArrayBuffer;
  options: BulkImportCsvOptions;
}

export type ImportParseReply = { ok: true; parse: BulkImportCsvParse } | { ok: false; message: string };

const couldNotRead = 'The CSV file could not be read.';

/**
 * Reads and checks an import CSV with core's `parseBulkImportCsv`, the very function the server
 * and the desktop app run, in a worker: a 5 MB file of 10,000 rows takes a few hundred
 * milliseconds of parsing and validating, which on the page's thread would freeze the progress
 * indicator and every key press meanwhile. One worker per file, ended when done or aborted.
 * Without workers (unit tests) the same function runs on the page.
 */
export async function parseImportFile(file: Blob, options: BulkImportCsvOptions, signal?: AbortSignal): Promise<BulkImportCsvParse> {
  const bytes = await file.arrayBuffer();
  signal?.throwIfAborted();
  if (typeof Worker === 'undefined') {
    const { parseBulkImportCsv } = await import('@everest/core/domain');
    return parseBulkImportCsv(new Uint8Array(bytes), options);
  }
  const worker = new Worker(new URL('./bulk-import-parse.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<BulkImportCsvParse>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      worker.addEventListener('message', (event: MessageEvent<ImportParseReply>) =>
        event.data.ok ? resolve(event.data.parse) : reject(new Error(event.data.message)),
      );
      worker.addEventListener('error', () => reject(new Error(couldNotRead)));
      const request: ImportParseRequest = { bytes, options };
      worker.postMessage(request, [bytes]);
    });
  } finally {
    worker.terminate();
  }
}
