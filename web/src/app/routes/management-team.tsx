import { TeamPage } from '../../features/team/components/team-page';

export default function ManagementTeamRoute() {
  return <TeamPage />;
}
