import { DeleteObjectCommand, GetObjectCommand, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import type { BackupPlace as BackupPlaceConfig } from '../../config';
import { archivePattern, type ArchiveEntry, type BackupPlace } from './backup-place';

/** Backups in an S3-compatible bucket, ideally another provider's or another region's than the files. */
export class S3Place implements BackupPlace {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: Extract<BackupPlaceConfig, { kind: 's3' }>) {
    this.bucket = config.bucket;
    this.prefix = config.prefix ? `${config.prefix}/` : '';
    this.location = `s3://${config.bucket}${config.prefix ? `/${config.prefix}` : ''}`;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // As for the file store: many S3-compatible services know no aws-chunked bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private async list(under: string): Promise<{ name: string; size: number }[]> {
    const found: { name: string; size: number }[] = [];
    const prefix = `${this.prefix}${under}`;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix, Delimiter: '/' })) {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(prefix.length) ?? '';
        if (name) found.push({ name, size: object.Size ?? 0 });
      }
    }
    return found;
  }

  async listArchives(): Promise<ArchiveEntry[]> {
    return (await this.list('')).filter((entry) => archivePattern.test(entry.name)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async listFiles(): Promise<Set<string>> {
    return new Set((await this.list('files/')).map((entry) => entry.name));
  }

  async write(key: string, source: Readable): Promise<number> {
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    source.once('error', (error) => meter.destroy(error));
    // A multipart upload's object appears only once the last part is in: never half an archive.
    await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: `${this.prefix}${key}`, Body: source.pipe(meter) } }).done();
    return size;
  }

  async read(key: string): Promise<Readable> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${key}` }));
    if (!(answer.Body instanceof Readable)) throw new Error('the S3 client answered a body that is not a Node stream');
    return answer.Body;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${key}` }));
  }

  close(): void {
    this.client.destroy();
  }
}
