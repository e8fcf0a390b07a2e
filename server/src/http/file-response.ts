import type { Context } from 'koa';
import type { FileStore } from '../features/files/file-store';
import { HttpError } from './errors';

export interface FileToSend {
  sha256: string;
  /** The size on disk, as just checked by the caller. */
  size: number;
  contentType: string;
  filename: string;
  disposition: 'inline' | 'attachment';
}

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A single `bytes=` range, or null for the whole file; throws 416 when it cannot be served. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answer the whole file, as RFC 9110 allows.
  if (!match) return null;
  const [, from = '', to = ''] = match;
  let start: number;
  let end: number;
  if (from === '') {
    if (to === '') return null;
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) {
    throw new HttpError(416, 'The requested range is not in this file.', { 'Content-Range': `bytes */${size}` });
  }
  return { start, end };
}

/**
 * Streams a stored file: never read whole into memory, with its length, a safe name, byte
 * ranges (for PDF viewers and resumed downloads) and no caching anywhere, since these are
 * investors' private papers.
 */
export function sendStoredFile(ctx: Context, files: FileStore, file: FileToSend): void {
  const actualSize = file.size;
  const range = parseRange(ctx.get('Range') || undefined, actualSize);
  ctx.set({
    'Content-Disposition': contentDisposition(file.disposition, file.filename),
    'Cache-Control': 'private, no-store',
    'Referrer-Policy': 'no-referrer',
    'Accept-Ranges': 'bytes',
  });
  ctx.type = file.contentType;
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${actualSize}`);
    ctx.length = range.end - range.start + 1;
    ctx.body = files.open(file.sha256, range);
  } else {
    ctx.status = 200;
    ctx.length = actualSize;
    ctx.body = files.open(file.sha256);
  }
}
