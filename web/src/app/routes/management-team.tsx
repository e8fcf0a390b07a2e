import { PageContainer } from '../../components/ui/page-container';

export default function ManagementTeamRoute() {
  return (
    <PageContainer title="Management Team">
      <p>The people who lead Everest Properties.</p>
    </PageContainer>
  );
}
