import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  OverlayDrawer,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { useLocation } from '../../lib/router';
import { accentGold } from '../../lib/theme';
import { DismissIcon } from '../ui/icons';
import { NavAnchor } from './nav-anchor';
import {
  aboutMenu,
  contactItem,
  homeItem,
  investorServicesItem,
  navGroupFor,
  portfolioMenu,
  type NavItem,
  type NavMenu,
} from './nav-items';

const useStyles = makeStyles({
  drawer: { maxWidth: '100vw' },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  sublist: {
    listStyleType: 'none',
    margin: `0 0 ${tokens.spacingVerticalS}`,
    padding: `0 0 0 ${tokens.spacingHorizontalM}`,
  },
  link: {
    display: 'flex',
    alignItems: 'center',
    minHeight: '44px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase400,
    textDecorationLine: 'none',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '-2px',
    },
    '&[aria-current="page"]': {
      fontWeight: tokens.fontWeightBold,
      boxShadow: `inset 3px 0 0 ${accentGold.onDark}`,
    },
  },
  groupHeading: {
    margin: `${tokens.spacingVerticalM} 0 ${tokens.spacingVerticalXS}`,
    padding: `0 ${tokens.spacingHorizontalM}`,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    letterSpacing: '0.08em',
    textTransform: 'uppercase',
    color: tokens.colorNeutralForeground2,
  },
  activeGroup: {
    color: accentGold.onDark,
    fontWeight: tokens.fontWeightBold,
  },
  activeLink: {
    fontWeight: tokens.fontWeightBold,
    color: accentGold.onDark,
  },
});

function MobileLink({ item, onNavigate, active = false }: { item: NavItem; onNavigate: () => void; active?: boolean }) {
  const styles = useStyles();
  return (
    <li>
      <NavAnchor
        item={item}
        onNavigate={onNavigate}
        className={mergeClasses(styles.link, active && styles.activeLink)}
      />
    </li>
  );
}

function MobileGroup({
  menu,
  active,
  onNavigate,
}: {
  menu: NavMenu;
  active: boolean;
  onNavigate: () => void;
}) {
  const styles = useStyles();
  const headingId = `mobile-nav-${menu.group}`;
  return (
    <li>
      <h3 id={headingId} className={mergeClasses(styles.groupHeading, active && styles.activeGroup)}>
        {menu.label}
      </h3>
      <ul className={styles.sublist} aria-labelledby={headingId}>
        {menu.items.map((item) => (
          <MobileLink key={item.label} item={item} onNavigate={onNavigate} />
        ))}
      </ul>
    </li>
  );
}

export interface MobileNavProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The right-side slide-out panel of the navigation on narrow screens. */
export function MobileNav({ open, onOpenChange }: MobileNavProps) {
  const styles = useStyles();
  const { pathname } = useLocation();
  const group = navGroupFor(pathname);
  const close = () => onOpenChange(false);

  return (
    <OverlayDrawer
      position="end"
      open={open}
      onOpenChange={(_, data) => onOpenChange(data.open)}
      className={styles.drawer}
      aria-label="Site navigation"
    >
      <DrawerHeader>
        <DrawerHeaderTitle
          action={
            <Button
              appearance="subtle"
              aria-label="Close navigation menu"
              icon={<DismissIcon />}
              onClick={close}
            />
          }
        >
          Menu
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        <nav aria-label="Mobile">
          <ul className={styles.list}>
            <MobileLink item={homeItem} onNavigate={close} active={group === 'home'} />
            <MobileGroup menu={aboutMenu} active={group === 'about'} onNavigate={close} />
            <MobileGroup menu={portfolioMenu} active={group === 'portfolio'} onNavigate={close} />
            <MobileLink
              item={investorServicesItem}
              onNavigate={close}
              active={group === 'investor'}
            />
            <MobileLink item={contactItem} onNavigate={close} />
          </ul>
        </nav>
      </DrawerBody>
    </OverlayDrawer>
  );
}
