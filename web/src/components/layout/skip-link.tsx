import type { MouseEvent } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { accentGold, everestBrand } from '../../lib/theme';

const useStyles = makeStyles({
  skip: {
    position: 'absolute',
    left: tokens.spacingHorizontalS,
    top: tokens.spacingVerticalS,
    zIndex: 1000,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: everestBrand[20],
    color: '#ffffff',
    fontWeight: tokens.fontWeightSemibold,
    textDecorationLine: 'underline',
    transform: 'translateY(-200%)',
    ':focus': {
      transform: 'none',
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '2px',
    },
  },
});

/**
 * The first tab stop: moves focus into the main region. The fragment is handled here so that
 * it does not become a history entry (the router would treat it as a navigation).
 */
export function SkipLink({ targetId }: { targetId: string }) {
  const styles = useStyles();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'start' });
  };
  return (
    <a href={`#${targetId}`} className={styles.skip} onClick={onClick}>
      Skip to main content
    </a>
  );
}
