// The paths of a dropped or watched folder: their parts, and the system, sync-tool and editor
// files in them that are never documents (planFolder passes over them without a warning).

/**
 * The watched-folder sync's lock, so that one sync at a time works on a folder and no two
 * publish the same files: the one file it writes there.
 */
export const syncLockFileName = '.everest-sync.lock';

/**
 * System, sync-tool and editor files that are never documents and never worth a warning:
 * Finder and Windows metadata, macOS zip leftovers, Office and LibreOffice lock files,
 * temporary files, Syncthing's marker, Synology's thumbnail folders, our own sync's lock.
 */
export function isIgnoredName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === '.ds_store' ||
    lower === 'thumbs.db' ||
    lower === 'desktop.ini' ||
    lower === '__macosx' ||
    lower === '.stfolder' ||
    lower === '@eadir' ||
    lower === syncLockFileName ||
    lower.startsWith(`${syncLockFileName}.`) ||
    name.startsWith('._') ||
    name.startsWith('~$') ||
    name.startsWith('.~lock') ||
    lower.endsWith('.tmp')
  );
}

/** True when any folder or the file of a relative path is ignored. */
export function isIgnoredPath(relativePath: string): boolean {
  return splitPath(relativePath).some(isIgnoredName);
}

/** The folders and the file of a relative path, whichever slash it uses. */
export function splitPath(relativePath: string): string[] {
  return relativePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
}
