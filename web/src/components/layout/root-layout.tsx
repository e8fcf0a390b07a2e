import { Suspense, startTransition, useEffect, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Outlet } from 'react-router-dom';
import { EverestMark } from '../ui/icons';
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

/** The navigation bar as index.html paints it before the script runs (its classes live there). */
function BootBar() {
  return (
    <div className="boot-bar" aria-hidden>
      <div className="boot-brand">
        <EverestMark style={{ color: '#D4AF37' }} />
        Everest Properties
      </div>
    </div>
  );
}

/** The frame of every route: skip link, sticky navigation, main region, footer. */
export function RootLayout() {
  const styles = useStyles();
  useScrollManagement();
  // The start-up commits index.html's stand-in bar at once and renders the real frame and page in
  // a transition, which React slices so that the main thread stays free for input meanwhile
  // (one long start-up task was most of the home page's blocking time, about 400 ms on a
  // throttled phone).
  const [started, setStarted] = useState(false);
  useEffect(() => startTransition(() => setStarted(true)), []);
  if (!started) return <BootBar />;
  return (
    <div className={styles.shell}>
      <SkipLink targetId={mainContentId} />
      <SiteHeader />
      <main id={mainContentId} tabIndex={-1} className={styles.main}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
