import { PageContainer } from '../../components/ui/page-container';

export default function InstructionsRoute() {
  return (
    <PageContainer title="Bulk Document Upload Instructions">
      <p>How to upload many investor documents at once.</p>
    </PageContainer>
  );
}
