import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useLocation } from '../../lib/router';
import { accentGold } from '../../lib/theme';
import { useNavTarget } from '../navigation/use-nav-target';
import { isCurrentItem, type NavItem, type NavMenu } from './nav-items';

const useStyles = makeStyles({
  menu: {
    position: 'absolute',
    top: 'calc(100% + 4px)',
    left: 0,
    zIndex: 110,
    display: 'flex',
    flexDirection: 'column',
    minWidth: '220px',
    padding: tokens.spacingVerticalXS,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
  },
  item: {
    display: 'block',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusSmall,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    textDecorationLine: 'none',
    whiteSpace: 'nowrap',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus': { outlineStyle: 'none', backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '-2px',
    },
  },
  current: {
    fontWeight: tokens.fontWeightBold,
    boxShadow: `inset 3px 0 0 ${accentGold.onDark}`,
  },
});

function MenuItem({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const styles = useStyles();
  const location = useLocation();
  const { href, onClick } = useNavTarget(item.target, onNavigate);
  const current = isCurrentItem(item.target, location);
  return (
    <a
      role="menuitem"
      tabIndex={-1}
      href={href}
      onClick={onClick}
      aria-current={current ? 'page' : undefined}
      className={mergeClasses(styles.item, current && styles.current)}
    >
      {item.label}
    </a>
  );
}

export interface DesktopNavMenuListProps {
  menu: NavMenu;
  id: string;
  labelledBy: string;
  /** Which item takes the focus when the menu opens. */
  focus: 'first' | 'last';
  /** Closes the menu; `returnFocus` puts the focus back on the menu button (Escape). */
  onClose: (returnFocus: boolean) => void;
  /** The menu button and the menu: a press inside them does not close it. */
  container: RefObject<HTMLElement | null>;
}

/**
 * The open menu of a desktop dropdown: arrow keys, Home and End move between the items, Escape
 * closes it, Tab or a press elsewhere leaves it. A chunk of its own: the bar needs it only
 * when a reader opens a menu.
 */
export default function DesktopNavMenuList({ menu, id, labelledBy, focus, onClose, container }: DesktopNavMenuListProps) {
  const styles = useStyles();
  const ref = useRef<HTMLDivElement>(null);
  const items = () => Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    const list = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    (focus === 'first' ? list[0] : list[list.length - 1])?.focus();
  }, [focus]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && container.current?.contains(event.target)) return;
      onClose(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [container, onClose]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.findIndex((el) => el === document.activeElement);
    const focusAt = (i: number) => list[(i + list.length) % list.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        focusAt(index < 0 ? list.length - 1 : index - 1);
        break;
      case 'Home':
        focusAt(0);
        break;
      case 'End':
        focusAt(list.length - 1);
        break;
      case 'Escape':
        onClose(true);
        break;
      case 'Tab':
        // Tab leaves the menu for the next control of the bar, closing it on the way.
        onClose(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div ref={ref} id={id} role="menu" aria-labelledby={labelledBy} className={styles.menu} onKeyDown={onKeyDown}>
      {menu.items.map((item) => (
        <MenuItem key={item.label} item={item} onNavigate={() => onClose(false)} />
      ))}
    </div>
  );
}
