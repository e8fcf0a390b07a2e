import { Card, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components';
import { PageContainer } from '../../../components/ui/page-container';

const useStyles = makeStyles({
  card: { maxWidth: '480px' },
  text: { color: tokens.colorNeutralForeground2 },
});

/** The investor portal screen (spec: investor portal, section 2). Sign-in comes next. */
export function InvestorPortal() {
  const styles = useStyles();
  return (
    <PageContainer title="Investor Portal">
      <Card className={styles.card}>
        <CardHeader
          header={
            <Text as="h2" size={500} weight="semibold">
              Sign in
            </Text>
          }
        />
        <Text className={styles.text}>
          Investors sign in here to see their property and personal documents.
        </Text>
      </Card>
    </PageContainer>
  );
}
