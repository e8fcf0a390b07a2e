import { AdvantagePage } from '../../features/advantage/components/advantage-page';

export default function CompetitiveAdvantageRoute() {
  return <AdvantagePage />;
}
