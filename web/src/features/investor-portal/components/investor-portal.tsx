import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { PageContainer } from '../../../components/ui/page-container';
import { PortalSessionProvider, usePortalSessionState } from '../lib/portal-session';
import { useResetTokenFromAddress } from '../lib/use-reset-token';
import { SignedInView, type SignedInViewProps } from './signed-in-view';
import { SignedOutView } from './signed-out-view';

const useStyles = makeStyles({
  loading: { padding: `${tokens.spacingVerticalXXXL} 0` },
});

export interface InvestorPortalProps {
  /** The administration panel shown by the Admin Panel toggle (administrators only). */
  adminPanel?: SignedInViewProps['adminPanel'];
}

/**
 * The investor portal screen (spec section 2): a spinner while the stored session is checked,
 * then the sign-in and password reset view, or the portal.
 */
export function InvestorPortal({ adminPanel }: InvestorPortalProps) {
  const styles = useStyles();
  const session = usePortalSessionState();
  const resetToken = useResetTokenFromAddress();

  return (
    <PageContainer title="Investor Services">
      <PortalSessionProvider session={session}>
        {session.status === 'checking' && (
          <div className={styles.loading}>
            <Spinner label="Checking your session..." />
          </div>
        )}
        {session.status === 'signed-in' && session.user && <SignedInView user={session.user} adminPanel={adminPanel} />}
        {session.status === 'signed-out' && <SignedOutView resetToken={resetToken} />}
      </PortalSessionProvider>
    </PageContainer>
  );
}
