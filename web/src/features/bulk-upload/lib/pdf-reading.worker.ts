import { readPdfText, splitPdf, SplitRefused } from '../../../lib/pdf';
import type { PdfReply, PdfRequest } from './pdf-reading';

// The worker's global scope, typed by hand: the web app's lib is DOM, not WebWorker.
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<PdfRequest>) => void): void;
  postMessage(message: PdfReply, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

scope.addEventListener('message', ({ data }) => {
  void (async () => {
    if (data.kind === 'read') {
      scope.postMessage({ reply: true, kind: 'read', text: await readPdfText(new Uint8Array(data.bytes), data.limits) });
      return;
    }
    try {
      const parts = await splitPdf(new Uint8Array(data.bytes), data.sections);
      const buffers = parts.map((part) => part.buffer as ArrayBuffer);
      scope.postMessage({ reply: true, kind: 'split', parts: buffers }, buffers);
    } catch (error) {
      scope.postMessage({ reply: true, kind: 'split-refused', message: error instanceof SplitRefused ? error.message : 'This PDF could not be cut into one PDF per investor.' });
    }
  })();
});
