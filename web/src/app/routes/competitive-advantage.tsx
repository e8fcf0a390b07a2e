import { PageContainer } from '../../components/ui/page-container';

export default function CompetitiveAdvantageRoute() {
  return (
    <PageContainer title="Competitive Advantage">
      <p>What sets our investment approach apart.</p>
    </PageContainer>
  );
}
