import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { OnDemand } from '../ui/on-demand';
import { useNavLinkStyles } from './nav-styles';
import type { NavMenu } from './nav-items';

// A menu button of the WAI-ARIA Authoring Practices (button, menu, menuitem links), written
// here rather than taken from Fluent's Menu: that one brings positioning, portals and tabster
// (about 40 KB gzip) into the entry chunk of every page for two short lists of links. The open
// list is a small chunk of its own, fetched when the pointer or the focus reaches a button.
const loadList = () => import('./desktop-nav-menu-list').then((module) => module.default);

const useStyles = makeStyles({
  root: { position: 'relative' },
  button: {
    gap: tokens.spacingHorizontalXS,
    border: 'none',
    backgroundColor: 'transparent',
    cursor: 'pointer',
    fontFamily: 'inherit',
  },
  chevron: {
    width: '12px',
    height: '12px',
    transitionProperty: 'transform',
    transitionDuration: tokens.durationFast,
    '@media (prefers-reduced-motion: reduce)': { transitionDuration: '0.01ms' },
  },
  chevronOpen: { transform: 'rotate(180deg)' },
});

type Focus = 'first' | 'last';

/** A dropdown of the desktop navigation bar (About, Portfolio). */
export function DesktopNavMenu({ menu, active }: { menu: NavMenu; active: boolean }) {
  const styles = useStyles();
  const linkStyles = useNavLinkStyles();
  // The open menu and the item that takes the focus (null: closed).
  const [openAt, setOpenAt] = useState<Focus | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  const open = openAt !== null;

  const close = useCallback((returnFocus: boolean) => {
    setOpenAt(null);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpenAt(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  };

  return (
    <div
      ref={rootRef}
      className={styles.root}
      onBlur={(event) => {
        // Focus that moves out of the button and the menu closes it.
        const next = event.relatedTarget;
        if (next instanceof Node && !rootRef.current?.contains(next)) setOpenAt(null);
      }}
    >
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={mergeClasses(linkStyles.link, styles.button, active && linkStyles.activeGroup)}
        data-active={active || undefined}
        onPointerEnter={() => void loadList()}
        onFocus={() => void loadList()}
        onClick={() => setOpenAt(open ? null : 'first')}
        onKeyDown={onKeyDown}
      >
        {menu.label}
        <svg className={mergeClasses(styles.chevron, open && styles.chevronOpen)} viewBox="0 0 12 12" aria-hidden focusable={false}>
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" />
        </svg>
      </button>
      {openAt && (
        <OnDemand
          load={loadList}
          props={{ menu, id: menuId, labelledBy: buttonId, focus: openAt, onClose: close, container: rootRef }}
        />
      )}
    </div>
  );
}
