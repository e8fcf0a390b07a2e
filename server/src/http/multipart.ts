import type { Readable } from 'node:stream';
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

export interface MultipartBody {
  /** The text fields, as strings: the route's body schema coerces them. */
  fields: Record<string, string>;
  /** The checked file, still in its temp file; null when the form carried none. */
  file: ReceivedFile | null;
}

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
      limits: { files: 1, fields: maxFields, fieldSize: maxFieldBytes, parts: maxFields + 1 },
    });
  } catch {
    throw new HttpError(400, 'The form data could not be read: its content type has no boundary.');
  }

  return new Promise<MultipartBody>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let receiving: Promise<ReceivedFile> | null = null;
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

    parser.on('file', (name, stream) => {
      if (!rule || name !== rule.field || receiving) {
        stream.resume();
        fail(new HttpError(400, rule ? `This form takes one file, in the field '${rule.field}'.` : 'This call takes no file.'));
        return;
      }
      fileStream = stream;
      receiving = rule.store.receive(stream, rule);
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
