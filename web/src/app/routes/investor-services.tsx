import { InvestorPortal } from '../../features/investor-portal/components/investor-portal';

export default function InvestorServicesRoute() {
  return <InvestorPortal />;
}
