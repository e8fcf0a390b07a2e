import { Component, type ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useLocation } from '../../lib/router';
import { PageContainer } from '../../components/ui/page-container';

const useStyles = makeStyles({
  text: { margin: `0 0 ${tokens.spacingVerticalL}` },
});

/**
 * Shown in place of a page that failed to render, with the navigation still around it. The
 * usual cause is a page chunk that no longer exists after a new release: a reload fetches it.
 */
export function RouteError() {
  const styles = useStyles();
  return (
    <PageContainer title="Something went wrong">
      <p className={styles.text}>
        This page could not be shown. Reloading the page usually helps.
      </p>
      <Button appearance="primary" onClick={() => window.location.reload()}>
        Reload page
      </Button>
    </PageContainer>
  );
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

interface BoundaryState {
  pathname: string;
  failed: boolean;
}

/** Catches a failure of the page at `pathname`; another page gets its own try. */
class PageBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { pathname: this.props.pathname, failed: false };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { pathname: props.pathname, failed: false };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/** The page, rendered inside a boundary that shows RouteError if it fails. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <PageBoundary pathname={pathname}>
      {children}
    </PageBoundary>
  );
}
