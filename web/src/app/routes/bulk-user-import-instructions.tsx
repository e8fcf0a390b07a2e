import { PageContainer } from '../../components/ui/page-container';

export default function BulkUserImportInstructionsRoute() {
  return (
    <PageContainer title="Bulk User Import Instructions">
      <p>How to import many investor accounts from a CSV file.</p>
    </PageContainer>
  );
}
