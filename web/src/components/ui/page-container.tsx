import type { ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { everestBrand } from '../../lib/theme';

const useStyles = makeStyles({
  root: {
    boxSizing: 'border-box',
    maxWidth: '1200px',
    margin: '0 auto',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL} ${tokens.spacingVerticalXXXL}`,
  },
  title: {
    margin: `0 0 ${tokens.spacingVerticalL}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
});

export interface PageContainerProps {
  title: string;
  children?: ReactNode;
  className?: string;
}

/** A content page: sets the document title and renders the page's one h1. */
export function PageContainer({ title, children, className }: PageContainerProps) {
  const styles = useStyles();
  useDocumentTitle(title);
  return (
    <div className={mergeClasses(styles.root, className)}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </div>
  );
}
