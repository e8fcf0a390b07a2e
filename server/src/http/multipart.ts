import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { Context } from 'koa';
import type { FileStore, PutOptions, ReceivedFile } from '../features/files/file-store';
import { HttpError } from './errors';

/** The one file a multipart route takes, and how it is checked while it streams. */
export interface UploadRule extends PutOptions {
  /** The form field that carries the file (`image`, `document`). */
  field: string;
  store: FileStore;
}

/** A checked upload with the name the client gave it (a path's folders left out). */
export interface UploadedFile extends ReceivedFile {
  filename: string;
}

export interface MultipartBody {
  /** The text fields, as strings: the route's body schema coerces them. */
  fields: Record<string, string>;
  /** The checked file, still in its temp file; null when the form carried none. */
  file: UploadedFile | null;
}

/**
 * Bidirectional controls: 'Statement\u202Efdp.pdf' shows as 'Statementfdp.pdf' reversed, a name
 * that lies about its extension in every list and download dialog.
 */
const bidiControls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * The name an upload is kept under: the last part of the client's name (some browsers and tools
 * send a whole path, Windows' with backslashes), in NFC (macOS spells 'é' as 'e' plus an accent,
 * Windows does not: one name, one spelling, so manifests and searches find it), without control
 * characters or bidirectional controls, trimmed. It may be empty: the route says what it needs.
 */
export function baseName(filename: string): string {
  const last = filename.split(/[\\/]/).pop() ?? '';
  return last.normalize('NFC').replace(/\p{Cc}/gu, '').replace(bidiControls, '').trim();
}

/**
 * Browsers write a file's name as raw UTF-8 in `filename="…"` (WHATWG's multipart encoding);
 * busboy reads it as Latin-1 unless told, which turned 'Relevé.pdf' into 'RelevÃ©.pdf'.
 */
const paramCharset = 'utf8';

// Far above any form of the contract; they bound what a stranger with a session can make us hold.
const maxFields = 50;
const maxFieldBytes = 100 * 1024;
/** Room for the text fields and part headers beside the file in a declared Content-Length. */
const formOverheadBytes = maxFields * 1024 + maxFieldBytes;

/**
 * Reads a multipart/form-data request: text fields into memory, the rule's file streamed into
 * the store's temp folder with its size counted as it arrives (413) and its type read from its
 * first bytes (415). On any refusal nothing is left behind: the temp file is removed before the
 * error is thrown, and the rest of the request is discarded by Node once the answer is sent.
 */
export async function readMultipart(ctx: Context, rule: UploadRule | undefined): Promise<MultipartBody> {
  const declared = Number(ctx.get('content-length'));
  if (rule && Number.isFinite(declared) && declared > rule.maxBytes + formOverheadBytes) {
    throw new HttpError(413, rule.tooLargeMessage);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      defParamCharset: paramCharset,
      limits: { files: 1, fields: maxFields, fieldSize: maxFieldBytes, parts: maxFields + 1 },
    });
  } catch {
    throw new HttpError(400, 'The form data could not be read: its content type has no boundary.');
  }

  return new Promise<MultipartBody>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let receiving: Promise<UploadedFile> | null = null;
    let fileStream: Readable | null = null;
    let failure: unknown = null;

    // The first failure wins; a file that made it to its temp file is let go.
    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      // Cut off from the request, the file's stream would wait for ever, and its temp file with it
      // (a client that went away halfway): ending it with the error makes the store remove it.
      fileStream?.destroy(error instanceof Error ? error : new Error(String(error)));
      void (receiving ?? Promise.resolve(null)).then(
        (file) => file?.discard(),
        () => undefined,
      );
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      if (!rule || name !== rule.field || receiving) {
        stream.resume();
        fail(new HttpError(400, rule ? `This form takes one file, in the field '${rule.field}'.` : 'This call takes no file.'));
        return;
      }
      fileStream = stream;
      const filename = baseName(info.filename ?? '');
      receiving = rule.store.receive(stream, rule).then((file) => ({ ...file, filename }));
      receiving.catch(fail);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(413, `The form field '${name}' is too long.`));
      else fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new HttpError(400, 'This form takes one file only.')));
    parser.on('fieldsLimit', () => fail(new HttpError(413, 'The form has too many fields.')));
    parser.on('partsLimit', () => fail(new HttpError(413, 'The form has too many parts.')));
    parser.on('error', () => fail(new HttpError(400, 'The form data could not be read.')));
    parser.on('close', () => {
      if (failure) return;
      (receiving ?? Promise.resolve(null)).then(
        (file) => {
          if (failure) return;
          resolve({ fields, file });
        },
        fail,
      );
    });
    // A client that goes away mid-upload is no failure of ours: nobody is left to read the answer.
    ctx.req.on('error', () => fail(new HttpError(400, 'The upload was interrupted before it was complete.')));
    ctx.req.pipe(parser);
  });
}

/**
 * A batch route's form: many files in one field (`documents` or `documents[]`), each checked
 * like a single upload while it streams, plus one small part read whole as text (the manifest),
 * sent as a file or as a text field.
 */
export interface BatchUploadRule extends PutOptions {
  field: string;
  store: FileStore;
  maxFiles: number;
  textPart: { name: string; maxBytes: number; tooLargeMessage: string };
}

/** A file of a batch refused while streaming (413, 415): its row fails, the others go on. */
export interface RefusedFile {
  filename: string;
  status: number;
  error: string;
}

export interface BatchMultipartBody {
  fields: Record<string, string>;
  /** Checked files in the order they were sent, still in their temp files. */
  files: UploadedFile[];
  refused: RefusedFile[];
  /** The text part's bytes when it came as a file (a field's text is in `fields`). */
  textFile: Buffer | null;
}

/**
 * Reads a batch form (see BatchUploadRule). Files arrive one after another and each goes to its
 * own temp file as it streams, so memory holds one chunk at a time whatever the batch's size. A
 * file too large or of the wrong type is drained and reported in `refused` rather than failing
 * the request, since the other investors' documents are fine; anything else fails the whole form
 * and removes every temp file it made.
 */
export async function readBatchMultipart(ctx: Context, rule: BatchUploadRule): Promise<BatchMultipartBody> {
  const declared = Number(ctx.get('content-length'));
  const most = rule.maxFiles * (rule.maxBytes + 1024) + rule.textPart.maxBytes + formOverheadBytes;
  if (Number.isFinite(declared) && declared > most) throw new HttpError(413, 'This batch is too large: please send it in smaller parts.');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      defParamCharset: paramCharset,
      limits: {
        files: rule.maxFiles + 1,
        fields: maxFields,
        // The manifest may come as a text field: the one field allowed to be that long.
        fieldSize: Math.max(maxFieldBytes, rule.textPart.maxBytes),
        parts: maxFields + rule.maxFiles + 1,
      },
    });
  } catch {
    throw new HttpError(400, 'The form data could not be read: its content type has no boundary.');
  }
  const fileFields = new Set([rule.field, `${rule.field}[]`]);

  return new Promise<BatchMultipartBody>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const received: (UploadedFile | null)[] = [];
    const refused: RefusedFile[] = [];
    const pending: Promise<void>[] = [];
    /** Each file part still streaming, with the relay the store reads it through. */
    const open = new Map<Readable, PassThrough>();
    let textFile: Buffer | null = null;
    let failure: unknown = null;

    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      // The relay, which the store's pipeline listens to, carries the error there and the temp file
      // is removed; the part itself is drained. Destroying the part with the error instead would
      // emit it where nobody listens, and an uncaught 'error' ends the process.
      for (const [stream, relay] of open) {
        stream.unpipe(relay);
        stream.resume();
        relay.destroy(error instanceof Error ? error : new Error(String(error)));
      }
      void Promise.allSettled(pending).then(() => Promise.all(received.map((file) => file?.discard())));
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      const filename = baseName(info.filename ?? '');
      if (name === rule.textPart.name && textFile === null) {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > rule.textPart.maxBytes) fail(new HttpError(413, rule.textPart.tooLargeMessage));
          else chunks.push(chunk);
        });
        stream.on('end', () => {
          textFile = Buffer.concat(chunks);
        });
        return;
      }
      if (!fileFields.has(name)) {
        stream.resume();
        fail(new HttpError(400, `This form takes its files in the field '${rule.field}' and the '${rule.textPart.name}'.`));
        return;
      }
      // The store's pipeline destroys what it reads on a refusal, which would stall the parser:
      // it reads a relay instead, and the part's remaining bytes are drained here.
      const slot = received.push(null) - 1;
      const relay = new PassThrough();
      open.set(stream, relay);
      stream.pipe(relay);
      stream.on('end', () => open.delete(stream));
      pending.push(
        rule.store.receive(relay, rule).then(
          (file) => {
            received[slot] = { ...file, filename };
            if (failure) void file.discard();
          },
          (error: unknown) => {
            stream.unpipe(relay);
            stream.resume();
            if (error instanceof HttpError && (error.status === 413 || error.status === 415)) {
              refused.push({ filename, status: error.status, error: error.message });
            } else {
              fail(error);
            }
          },
        ),
      );
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(413, name === rule.textPart.name ? rule.textPart.tooLargeMessage : `The form field '${name}' is too long.`));
      else fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new HttpError(413, `A batch takes at most ${rule.maxFiles} files.`)));
    parser.on('fieldsLimit', () => fail(new HttpError(413, 'The form has too many fields.')));
    parser.on('partsLimit', () => fail(new HttpError(413, 'The form has too many parts.')));
    parser.on('error', () => fail(new HttpError(400, 'The form data could not be read.')));
    parser.on('close', () => {
      if (failure) return;
      void Promise.all(pending).then(() => {
        if (failure) return;
        resolve({ fields, files: received.filter((file): file is UploadedFile => file !== null), refused, textFile });
      });
    });
    ctx.req.on('error', () => fail(new HttpError(400, 'The upload was interrupted before it was complete.')));
    ctx.req.pipe(parser);
  });
}
