import {
  Menu,
  MenuButton,
  MenuItemLink,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { useLocation } from 'react-router-dom';
import { accentGold } from '../../lib/theme';
import { useNavTarget } from '../navigation/use-nav-target';
import { isCurrentItem, type NavItem, type NavMenu } from './nav-items';
import { useNavLinkStyles } from './nav-styles';

const useStyles = makeStyles({
  button: {
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
  },
  current: {
    fontWeight: tokens.fontWeightBold,
    boxShadow: `inset 3px 0 0 ${accentGold.onDark}`,
  },
});

function DesktopNavMenuItem({ item }: { item: NavItem }) {
  const styles = useStyles();
  const location = useLocation();
  const { href, onClick } = useNavTarget(item.target);
  const current = isCurrentItem(item.target, location);
  return (
    <MenuItemLink
      href={href}
      onClick={onClick}
      aria-current={current ? 'page' : undefined}
      className={current ? styles.current : undefined}
    >
      {item.label}
    </MenuItemLink>
  );
}

/** A dropdown of the desktop navigation bar (About, Portfolio). */
export function DesktopNavMenu({ menu, active }: { menu: NavMenu; active: boolean }) {
  const styles = useStyles();
  const linkStyles = useNavLinkStyles();
  return (
    // Inline, so that the open menu stays inside the navigation landmark.
    <Menu inline positioning={{ position: 'below', align: 'start', offset: 4 }}>
      <MenuTrigger disableButtonEnhancement>
        <MenuButton
          appearance="subtle"
          className={mergeClasses(styles.button, active && linkStyles.activeGroup)}
          data-active={active || undefined}
        >
          {menu.label}
        </MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {menu.items.map((item) => (
            <DesktopNavMenuItem key={item.label} item={item} />
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
