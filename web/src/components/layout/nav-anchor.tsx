import type { AnchorHTMLAttributes } from 'react';
import { useLocation } from '../../lib/router';
import { useNavTarget } from '../navigation/use-nav-target';
import { isCurrentItem, type NavItem } from './nav-items';

export interface NavAnchorProps
  extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'> {
  item: NavItem;
  onNavigate?: () => void;
}

/** A plain anchor for a navigation item, with aria-current="page" when it shows the current page. */
export function NavAnchor({ item, onNavigate, children, ...rest }: NavAnchorProps) {
  const location = useLocation();
  const { href, onClick } = useNavTarget(item.target, onNavigate);
  const current = isCurrentItem(item.target, location);
  return (
    <a {...rest} href={href} onClick={onClick} aria-current={current ? 'page' : undefined}>
      {children ?? item.label}
    </a>
  );
}
