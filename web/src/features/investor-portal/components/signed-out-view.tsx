import { makeStyles, tokens } from '@fluentui/react-components';
import { InvestorRelationsCard } from './investor-relations-card';
import { SignInCard } from './sign-in-card';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingVerticalL,
    alignItems: 'start',
    '@media (min-width: 900px)': {
      gridTemplateColumns: 'minmax(0, 30rem) minmax(0, 1fr)',
      columnGap: tokens.spacingHorizontalXXL,
    },
  },
});

/** Signed out: the sign-in card with its password reset panel, and the contact block. */
export function SignedOutView({ resetToken }: { resetToken: string | null }) {
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <SignInCard resetToken={resetToken} />
      <InvestorRelationsCard title="Investor Relations" />
    </div>
  );
}
