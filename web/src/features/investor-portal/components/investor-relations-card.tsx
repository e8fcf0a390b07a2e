import { Card, Link, Text, makeStyles, tokens } from '@fluentui/react-components';
import { siteFacts } from '@everest/fixtures/site';
import { usePortalStyles } from './portal-styles';

const useStyles = makeStyles({
  list: {
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
  },
  term: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0, overflowWrap: 'anywhere' },
});

const { phone, email } = siteFacts.investorRelations;
const telHref = `tel:${phone.replace(/[^\d+]/g, '')}`;

/** The Investor Relations contact block: beside the sign-in card, and under the documents. */
export function InvestorRelationsCard({ title }: { title: string }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  return (
    <Card className={portal.card} aria-labelledby="investor-relations-title">
      <h2 id="investor-relations-title" className={portal.cardTitle}>
        {title}
      </h2>
      <Text className={portal.muted}>
        Questions about your investment, your documents or your account? Our Investor Relations team is here to help.
      </Text>
      <dl className={styles.list}>
        <dt className={styles.term}>Phone</dt>
        <dd className={styles.value}>
          <Link href={telHref}>{phone}</Link>
        </dd>
        <dt className={styles.term}>Email</dt>
        <dd className={styles.value}>
          <Link href={`mailto:${email}`}>{email}</Link>
        </dd>
      </dl>
    </Card>
  );
}
