import { useState } from 'react';
import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { mainContentId } from '../../../components/layout/use-scroll-management';
import { PageContainer } from '../../../components/ui/page-container';
import { PortalSessionProvider, usePortalSessionState } from '../lib/portal-session';
import { useResetTokenFromAddress } from '../lib/use-reset-token';
import { EmailLinkCard, useEmailLinkFromAddress } from './email-link-card';
import { SignedInView, type SignedInViewProps } from './signed-in-view';
import { SignedOutView } from './signed-out-view';

const useStyles = makeStyles({
  loading: { padding: `${tokens.spacingVerticalXXXL} 0` },
  emailLink: { marginBottom: tokens.spacingVerticalL },
});

export interface InvestorPortalProps {
  /** The administration panel shown by the Admin Panel toggle (administrators only). */
  adminPanel?: SignedInViewProps['adminPanel'];
}

/**
 * The investor portal screen (spec section 2): a spinner while the stored session is checked,
 * then the sign-in and password reset view, or the portal; above them, the card of an e-mail
 * change's link when the page was opened with one.
 */
export function InvestorPortal({ adminPanel }: InvestorPortalProps) {
  const styles = useStyles();
  const session = usePortalSessionState();
  const resetToken = useResetTokenFromAddress();
  // An e-mail change's link works signed in or not: its card comes first either way.
  const addressLink = useEmailLinkFromAddress();
  const [emailLink, setEmailLink] = useState(addressLink);
  // The card goes away with the focus inside it: the page's content takes it, as the skip link gives it.
  const closeEmailLink = () => {
    setEmailLink(null);
    document.getElementById(mainContentId)?.focus();
  };

  return (
    <PageContainer title="Investor Services">
      <PortalSessionProvider session={session}>
        {emailLink && (
          <div className={styles.emailLink}>
            <EmailLinkCard link={emailLink} onClose={closeEmailLink} />
          </div>
        )}
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
