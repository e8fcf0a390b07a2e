import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { pathParts } from './path-parts';

const useStyles = makeStyles({
  root: {
    position: 'relative',
    display: 'block',
    minWidth: 0,
    maxWidth: '100%',
    fontFamily: tokens.fontFamilyMonospace,
    borderRadius: tokens.borderRadiusSmall,
    // The keyboard's stand-in for the hover title: the whole path, wrapped where it stands.
    ':focus-visible': {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: tokens.strokeWidthThin,
    },
    '&:focus-visible > [aria-hidden]': { display: 'none' },
    '&:focus-visible > span:last-child': {
      position: 'static',
      width: 'auto',
      height: 'auto',
      overflow: 'visible',
      clipPath: 'none',
      whiteSpace: 'pre-wrap',
      overflowWrap: 'anywhere',
    },
  },
  // One line; when it does not fit, the folders between give way first ("2025-Q3/prop…/Report.pdf"),
  // then a long file name's middle ("2025-Q3/p…/Quarterly distrib…vised 2025.pdf").
  shown: { display: 'flex', whiteSpace: 'pre', userSelect: 'none' },
  part: { overflow: 'hidden', textOverflow: 'ellipsis' },
  start: { flexShrink: 0, maxWidth: '40%' },
  middle: { flexShrink: 1000, minWidth: '1.5ch' },
  name: { flexShrink: 1, minWidth: '3ch' },
  nameEnd: { flexShrink: 0, maxWidth: '50%' },
  // The whole path as one text, for screen readers, copying and the focused view: the cut parts
  // are boxes, which a screen reader would read with spaces between them.
  whole: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
});

/**
 * A file's path on one line, cut in the middle when it is too long, keeping its first folder and
 * the ends of its file name; the whole path shows on hover (title) and on keyboard focus, and is
 * what a screen reader reads. Used for every path in the desktop's tables.
 */
export function MiddleTruncatedPath({ path, className, id }: { path: string; className?: string; id?: string }) {
  const styles = useStyles();
  const { start, middle, name, nameEnd } = pathParts(path);
  return (
    <span id={id} className={mergeClasses(styles.root, className)} title={path} tabIndex={0}>
      <span className={styles.shown} aria-hidden="true">
        {start && <span className={mergeClasses(styles.part, styles.start)}>{start}</span>}
        {middle && <span className={mergeClasses(styles.part, styles.middle)}>{middle}</span>}
        <span className={mergeClasses(styles.part, styles.name)}>{name}</span>
        {nameEnd && <span className={mergeClasses(styles.part, styles.nameEnd)}>{nameEnd}</span>}
      </span>
      <span className={styles.whole}>{path}</span>
    </span>
  );
}
