import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { putThrough, sha256Name, TempUploads, type ByteRange, type FileStore, type OpenedFile, type PutOptions, type ReceivedFile, type StoredBlob, type AdoptedFile } from './file-store';

export interface S3FileStoreOptions {
  bucket: string;
  /** Folder-like prefix of every key, without slashes at either end; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible service's address (MinIO, Ceph, R2…); AWS's own when absent. */
  endpoint: string | undefined;
  region: string;
  /** Keys in the path (`endpoint/bucket/key`) rather than the host name, as most S3-compatible services want. */
  forcePathStyle: boolean;
  /** Absent: the SDK's own chain (AWS_* variables, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** This machine's folder where uploads are checked before they are sent to the bucket. */
  tempDir: string;
}

/**
 * Content-addressed files in an S3-compatible bucket, `<prefix>/<sha256>`, so that several
 * instances share them. Uploads are checked in a temp file on this machine, then streamed to the
 * bucket (in parts, for large files); downloads stream from the bucket with the Range asked for.
 */
export class S3FileStore implements FileStore {
  readonly location: string;
  readonly tempDir: string;
  private readonly client: S3Client;
  private readonly uploads: TempUploads;

  constructor(private readonly options: S3FileStoreOptions) {
    this.location = `s3://${options.bucket}${options.prefix ? `/${options.prefix}` : ''}`;
    this.tempDir = options.tempDir;
    this.uploads = new TempUploads(options.tempDir);
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // The SDK's default checksums (aws-chunked bodies with trailers) are unknown to many
      // S3-compatible services; content is checked by its SHA-256 name anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  keyOf(sha256: string): string {
    return this.options.prefix ? `${this.options.prefix}/${sha256}` : sha256;
  }

  /** The object's size and age, or null when the bucket has no such object. */
  private async head(sha256: string): Promise<{ size: number; mtimeMs: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }));
      return { size: head.ContentLength ?? 0, mtimeMs: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.head(sha256)) !== null;
  }

  async open(sha256: string): Promise<OpenedFile | null> {
    const found = await this.head(sha256);
    if (!found) return null;
    return {
      size: found.size,
      writeTo: (out, range) => this.writeRange(sha256, out, range),
      // Nothing is held open between the look and the read.
      close: async () => undefined,
    };
  }

  private async writeRange(sha256: string, out: Writable, range: ByteRange): Promise<void> {
    if (range.end < range.start) return;
    const answer = await this.client.send(
      new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256), Range: `bytes=${range.start}-${range.end}` }),
    );
    if (!(answer.Body instanceof Readable)) throw new Error('the S3 client answered a body that is not a Node stream');
    try {
      // The pipeline reads only as fast as `out` takes; a cancelled download ends the GET with it.
      await pipeline(answer.Body, out, { end: false });
    } catch (error) {
      if (out.destroyed) return;
      throw error;
    }
  }

  receive(source: Readable, options: PutOptions): Promise<ReceivedFile> {
    return this.uploads.receive(source, options, (tmp, blob) => this.adopt(tmp, blob));
  }

  async adopt(file: string, blob: AdoptedFile): Promise<void> {
    // Sent even when the bucket has these bytes already: the new LastModified is what tells
    // the unreferenced-file sweep that an upload has just kept this file (removeIfUntouched).
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.options.bucket,
        Key: this.keyOf(blob.sha256),
        Body: createReadStream(file),
        ContentType: blob.contentType,
        ContentLength: blob.size,
      },
    }).done();
    await rm(file, { force: true });
  }

  put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    return putThrough(this, source, options);
  }

  sweepTemp(minAgeMs: number, now = Date.now()): Promise<number> {
    return this.uploads.sweep(minAgeMs, now);
  }

  /**
   * S3 has no rename to step aside with: the object's age is read and, if old, it is deleted.
   * An upload of the same bytes landing between those two calls (milliseconds) would lose its
   * file; the sweep runs rarely and only over files no row has named for an hour.
   */
  async removeIfUntouched(sha256: string, minAgeMs: number, now = Date.now()): Promise<boolean> {
    const found = await this.head(sha256);
    if (!found || now - found.mtimeMs < minAgeMs) return false;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }));
    return true;
  }

  async list(): Promise<{ sha256: string; mtimeMs: number }[]> {
    const found: { sha256: string; mtimeMs: number }[] = [];
    const prefix = this.options.prefix ? `${this.options.prefix}/` : '';
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.options.bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(prefix.length) ?? '';
        if (sha256Name.test(name)) found.push({ sha256: name, mtimeMs: object.LastModified?.getTime() ?? 0 });
      }
    }
    return found;
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}
