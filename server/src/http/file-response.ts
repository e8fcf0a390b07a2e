import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { OpenedFile } from '../features/files/file-store';
import { HttpError } from './errors';

/** Inclusive byte offsets, as in a Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileDetails {
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
 * Writes bytes `start`..`end` of an open file as the answer, then closes it. The bytes go
 * through a few buffers that are reused once the socket has taken them: a stream would allocate
 * a fresh buffer per chunk, and V8 lets such garbage reach tens of megabytes before it collects,
 * so a 100 MB download would grow the server by that much.
 */
export function respondWithFile(ctx: Context, file: OpenedFile, range: ByteRange): void {
  // Koa writes nothing more: the loop below owns the response. The status and headers set on
  // ctx are already the response's own.
  ctx.respond = false;
  const res = ctx.res;
  const send = ctx.method === 'HEAD' ? Promise.resolve() : writeRange(res, file, range);
  send
    .then(() => res.end())
    .catch((error: unknown) => {
      // Headers are gone: all that is left is to cut the connection so the client sees a
      // truncated transfer, not a complete-looking one.
      if (!res.destroyed) ctx.app.emit('error', error, ctx);
      res.destroy();
    })
    .finally(() => void file.handle.close());
}

const bufferSize = 256 * 1024;
const buffersPerResponse = 4;

async function writeRange(res: ServerResponse, file: OpenedFile, range: ByteRange): Promise<void> {
  const free: Buffer[] = Array.from({ length: buffersPerResponse }, () => Buffer.allocUnsafeSlow(bufferSize));
  let waiting: (() => void) | null = null;
  let failed: Error | null = null;
  const release = (buffer: Buffer) => (error?: Error | null) => {
    if (error) failed = error;
    free.push(buffer);
    waiting?.();
    waiting = null;
  };
  // The socket closing early (the investor cancelled) also wakes the loop.
  const onClose = () => waiting?.();
  res.once('close', onClose);
  try {
    let position = range.start;
    while (position <= range.end) {
      while (free.length === 0 && !res.destroyed && !failed) await new Promise<void>((resolve) => (waiting = resolve));
      if (failed) throw failed;
      if (res.destroyed) return;
      const buffer = free.pop() as Buffer;
      const { bytesRead } = await file.handle.read(buffer, 0, Math.min(bufferSize, range.end - position + 1), position);
      if (bytesRead === 0) throw new Error('the file is shorter than its size');
      position += bytesRead;
      res.write(bytesRead === bufferSize ? buffer : buffer.subarray(0, bytesRead), release(buffer));
    }
  } finally {
    res.off('close', onClose);
  }
}

/**
 * Answers a stored document: its length, a safe name, byte ranges (for PDF viewers and resumed
 * downloads) and no caching anywhere, since these are investors' private papers. `onRead` runs
 * before any byte leaves when the answer is a read of the document (a GET from its first byte,
 * not a viewer's later ranges), and a failure there sends nothing.
 */
export async function sendStoredFile(
  ctx: Context,
  file: OpenedFile,
  details: FileDetails & { onRead: () => Promise<void> },
): Promise<void> {
  let range: ByteRange | null;
  try {
    range = parseRange(ctx.get('Range') || undefined, file.size);
    if (ctx.method === 'GET' && (range?.start ?? 0) === 0) await details.onRead();
  } catch (error) {
    await file.handle.close();
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
