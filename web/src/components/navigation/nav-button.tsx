import type { ReactElement, ReactNode } from 'react';
import { Button, type ButtonProps } from '@fluentui/react-components';
import type { NavTarget } from './nav-target';
import { useNavTarget } from './use-nav-target';

export interface NavButtonProps extends Pick<ButtonProps, 'appearance' | 'size' | 'shape' | 'iconPosition'> {
  target: NavTarget;
  children: ReactNode;
  icon?: ReactElement;
  className?: string;
  onNavigate?: () => void;
  /** e.g. the card title, for links whose text repeats on the page ('View Properties'). */
  'aria-describedby'?: string;
}

/** A Fluent button that is a real link (role link, a real href) to a page or a home section. */
export function NavButton({ target, onNavigate, icon, ...rest }: NavButtonProps) {
  const { href, onClick } = useNavTarget(target, onNavigate);
  return <Button {...rest} icon={icon} as="a" href={href} onClick={onClick} />;
}
