import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
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
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
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
