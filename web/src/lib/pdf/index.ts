// Reading and cutting untrusted PDFs where the files are (the browser's worker, the desktop's
// Node), in the web package because core depends on zod and papaparse alone; the desktop imports it as
// @everest/web/pdf. Only the callers that read PDFs load PDF.js.
export { pdfLimits, pdfReaderMemoryMegabytes, pdfReadingMessages, readPdfText, type PdfLimits, type PdfText } from './read-pdf-text';
export { splitMessages, splitPdf, SplitRefused } from './split-pdf';
