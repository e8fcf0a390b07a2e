/**
 * A path cut for showing in the middle-truncated form: its first folder, the folders between,
 * and its file name (with the separator before it), a long name's last characters apart (the end
 * of the title and the extension, which tell files apart). The parts joined are the path, exactly.
 */
export interface PathParts {
  start: string;
  middle: string;
  name: string;
  nameEnd: string;
}

/** How much of a long file name stays visible at its end: about "review 2025.pdf". */
const nameEndLength = 14;

export function pathParts(path: string): PathParts {
  // A folder's trailing separator goes with its last name.
  const trimmed = path.replace(/[\\/]+$/, '');
  const trailing = path.slice(trimmed.length);
  const last = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  // The first separator after a leading one (an absolute path's "/home/" stays together).
  const next = last > 0 ? trimmed.slice(1).search(/[\\/]/) + 1 : 0;
  const startEnd = next > 0 && next < last ? next + 1 : 0;
  const fileName = `${trimmed.slice(Math.max(last, 0))}${trailing}`;
  const cut = fileName.length > nameEndLength + 4 ? fileName.length - nameEndLength : fileName.length;
  return {
    start: trimmed.slice(0, startEnd),
    middle: trimmed.slice(startEnd, Math.max(last, 0)),
    name: fileName.slice(0, cut),
    nameEnd: fileName.slice(cut),
  };
}
