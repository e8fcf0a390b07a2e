import type { Context } from 'koa';
import type { ByteRange, OpenedFile } from '../features/files/file-store';
import { HttpError } from './errors';

export type { ByteRange } from '../features/files/file-store';

export interface FileDetails {
  contentType: string;
  filename: string;
  disposition: 'inline' | 'attachment';
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * RFC 6266: an ASCII fallback plus the exact UTF-8 name (RFC 5987's filename*). The fallback has
 * no quote, backslash or `%` (some browsers decode %XX there, RFC 6266 appendix D); a lone
 * surrogate, which encodeURIComponent refuses, is written as U+FFFD.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const name = filename.replace(loneSurrogate, '\uFFFD');
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A single `bytes=` range, or null for the whole file; throws 416 when it cannot be served. */
export function parseRange(header: string | undefined, size: number): ByteRange | null {
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
 * Writes bytes `start`..`end` of an open file as the answer, at the pace the client takes them
 * (see OpenedFile.writeTo), then closes it.
 */
export function respondWithFile(ctx: Context, file: OpenedFile, range: ByteRange): void {
  // Koa writes nothing more: the file owns the response. The status and headers set on ctx are
  // already the response's own.
  ctx.respond = false;
  const res = ctx.res;
  const send = ctx.method === 'HEAD' ? Promise.resolve() : file.writeTo(res, range);
  send
    .then(() => res.end())
    .catch((error: unknown) => {
      // Headers are gone: all that is left is to cut the connection so the client sees a
      // truncated transfer, not a complete-looking one.
      if (!res.destroyed) ctx.app.emit('error', error, ctx);
      res.destroy();
    })
    .finally(() => void file.close());
}

/**
 * Answers a stored document: its length, a safe name, byte ranges (for PDF viewers and resumed
 * downloads) and no caching anywhere, since these are investors' private papers. `onRead` runs
 * before any byte leaves on every GET that serves content, whole or a range of it (`bytes=1-` is
 * the whole file but a byte, so it must count as a read), told which, and a failure there sends nothing.
 */
export async function sendStoredFile(
  ctx: Context,
  file: OpenedFile,
  details: FileDetails & { onRead: (read: { ranged: boolean }) => Promise<void> },
): Promise<void> {
  let range: ByteRange | null;
  try {
    range = parseRange(ctx.get('Range') || undefined, file.size);
    if (ctx.method === 'GET') await details.onRead({ ranged: range !== null });
  } catch (error) {
    await file.close();
    throw error;
  }
  ctx.set({
    'Content-Disposition': contentDisposition(details.disposition, details.filename),
    'Cache-Control': 'private, no-store',
    'Referrer-Policy': 'no-referrer',
    'Accept-Ranges': 'bytes',
  });
  ctx.type = details.contentType;
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
  } else {
    ctx.status = 200;
  }
  const bytes = range ?? { start: 0, end: file.size - 1 };
  ctx.length = bytes.end - bytes.start + 1;
  respondWithFile(ctx, file, bytes);
}
