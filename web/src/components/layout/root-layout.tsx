import { Suspense, type ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { PageLoading } from '../ui/page-loading';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { SkipLink } from './skip-link';
import { mainContentId, useScrollManagement } from './use-scroll-management';

const useStyles = makeStyles({
  shell: {
    display: 'flex',
    flexDirection: 'column',
    minHeight: '100vh',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  main: {
    flexGrow: 1,
    minWidth: 0,
    ':focus': { outlineStyle: 'none' },
  },
});

/** The frame of every page: skip link, sticky navigation, main region (the page), footer. */
export function RootLayout({ children }: { children: ReactNode }) {
  const styles = useStyles();
  useScrollManagement();
  return (
    <div className={styles.shell}>
      <SkipLink targetId={mainContentId} />
      <SiteHeader />
      <main id={mainContentId} tabIndex={-1} className={styles.main}>
        <Suspense fallback={<PageLoading />}>
          {children}
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
