import { team } from '@everest/fixtures/team';
import { teamMemberCount } from '@everest/core/domain';
import { expect, it } from 'vitest';
import { teamPhotoUrl } from './team-photos';

it('has a photo file for each of the ten team members', () => {
  expect(team).toHaveLength(teamMemberCount);
  for (const member of team) expect(teamPhotoUrl(member.image), member.image).toBeTruthy();
});
