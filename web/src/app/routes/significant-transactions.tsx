import { TransactionsPage } from '../../features/transactions/components/transactions-page';

export default function SignificantTransactionsRoute() {
  return <TransactionsPage />;
}
