import { PageContainer } from '../../components/ui/page-container';

export default function PropertyMapRoute() {
  return (
    <PageContainer title="Property Portfolio Map">
      <p>Our properties across the United States, on a map.</p>
    </PageContainer>
  );
}
