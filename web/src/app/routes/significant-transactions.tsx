import { PageContainer } from '../../components/ui/page-container';

export default function SignificantTransactionsRoute() {
  return (
    <PageContainer title="Significant Transactions">
      <p>A selection of the transactions we have completed.</p>
    </PageContainer>
  );
}
