import '../../../lib/zod-without-eval';
import { parseBulkImportCsv } from '@everest/core/domain';
import type { ImportParseReply, ImportParseRequest } from './bulk-import-parse';

// The worker's global scope, typed by hand: the web app's lib is DOM, not WebWorker.
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<ImportParseRequest>) => void): void;
  postMessage(message: ImportParseReply): void;
}
const scope = self as unknown as WorkerScope;

scope.addEventListener('message', ({ data }) => {
  try {
    scope.postMessage({ ok: true, parse: parseBulkImportCsv(new Uint8Array(data.bytes), data.options) });
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : 'The CSV file could not be read.' });
  }
});
