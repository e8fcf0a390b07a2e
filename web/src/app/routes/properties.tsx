import { PageContainer } from '../../components/ui/page-container';

export default function PropertiesRoute() {
  return (
    <PageContainer title="Our Property Portfolio">
      <p>Our active residential, self-storage and retail properties.</p>
    </PageContainer>
  );
}
