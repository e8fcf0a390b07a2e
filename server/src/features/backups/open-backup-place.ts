import type { BackupPlace as BackupPlaceConfig } from '../../config';
import { FolderPlace, type BackupPlace } from './backup-place';

/** The configured place: a folder, or a bucket (the AWS SDK is loaded only for one, as for the file store). */
export async function openBackupPlace(config: BackupPlaceConfig): Promise<BackupPlace> {
  if (config.kind === 'folder') return new FolderPlace(config.path);
  const { S3Place } = await import('./s3-backup-place');
  return new S3Place(config);
}
