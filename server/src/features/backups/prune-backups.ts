import { pipeline } from 'node:stream/promises';
import { list as listTar } from 'tar';
import { timeZone } from '@everest/core/domain';
import type { BackupConfig } from '../../config';
import { openingStream, type BackupKey } from './archive-crypto';
import { backupManifest, type BackupManifest } from './backup-manifest';
import { archiveTime, FolderPlace, type ArchiveEntry, type BackupPlace } from './backup-place';

/**
 * The archives to keep, as restic's `forget --keep-daily 7 --keep-weekly 4 --keep-monthly 12`
 * does: the newest archive of each of the last `daily` days that have one, of the last `weekly`
 * weeks, of the last `monthly` months (in the firm's time zone), and always the newest.
 */
export function archivesToKeep(archives: readonly ArchiveEntry[], keep: BackupConfig['keep']): Set<string> {
  const dated = archives
    .map((archive) => ({ name: archive.name, at: archiveTime(archive.name) }))
    .filter((archive): archive is { name: string; at: Date } => archive.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const kept = new Set<string>(dated[0] ? [dated[0].name] : []);
  const parts = (at: Date) => {
    const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).split('-').map(Number) as [number, number, number];
    // The week's Monday, as a day number, names the week.
    const dayNumber = Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
    const monday = dayNumber - ((new Date(dayNumber * 86_400_000).getUTCDay() + 6) % 7);
    return { day: `${year}-${month}-${day}`, week: String(monday), month: `${year}-${month}` };
  };
  for (const [period, count] of [['day', keep.daily], ['week', keep.weekly], ['month', keep.monthly]] as const) {
    const seen = new Set<string>();
    for (const archive of dated) {
      const bucket = parts(archive.at)[period];
      if (seen.has(bucket)) continue;
      if (seen.size >= count) break;
      seen.add(bucket);
      kept.add(archive.name);
    }
  }
  return kept;
}

/** The manifest at the start of an archive, or null when it cannot be read (another key). */
export async function readArchiveManifest(place: BackupPlace, name: string, key: BackupKey | null): Promise<BackupManifest | null> {
  const encrypted = name.endsWith('.enc');
  if (encrypted && !key) return null;
  let text = '';
  try {
    const source = await place.read(name);
    const parser = listTar({
      onReadEntry: (entry) => {
        if (entry.path !== 'manifest.json') return entry.resume();
        entry.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      },
    });
    await pipeline(source, openingStream(encrypted ? key : null, name), parser);
    const parsed = backupManifest.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Removes the archives BACKUP_KEEP lets go, then the files no kept archive names. A kept archive
 * whose manifest cannot be read (made with an earlier BACKUP_KEY) keeps every file.
 */
export async function pruneBackups(place: BackupPlace, key: BackupKey | null, keep: BackupConfig['keep']): Promise<{ archives: number; files: number }> {
  // A day: no backup is still writing its files after that.
  if (place instanceof FolderPlace) await place.removeUnfinished(24 * 60 * 60_000);
  const archives = await place.listArchives();
  const kept = archivesToKeep(archives, keep);
  const gone = archives.filter((archive) => !kept.has(archive.name));
  for (const archive of gone) await place.remove(archive.name);
  const named = new Set<string>();
  for (const name of kept) {
    const manifest = await readArchiveManifest(place, name, key);
    if (!manifest) return { archives: gone.length, files: 0 };
    for (const file of manifest.files) named.add(file.name);
  }
  let files = 0;
  for (const name of await place.listFiles()) {
    if (named.has(name)) continue;
    await place.remove(`files/${name}`);
    files += 1;
  }
  return { archives: gone.length, files };
}
