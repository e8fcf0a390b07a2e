// @vitest-environment node
import { expect, it } from 'vitest';
import { renderPage, type PageRequest } from './entry-server';
import { seededPublicProperties } from './testing/sample-properties';

const request = (page: PageRequest['page'], properties: PageRequest['properties']): PageRequest => ({
  page,
  search: '',
  publicUrl: 'https://www.everest.example',
  tileUrl: 'http://tiles.everest.example/{z}/{x}/{y}.png',
  properties,
});

// Renders asked for at the same moment (a server's first requests, or after the pages' cache was
// dropped) must each render with their own page's data: the last one asked for here has no list,
// and a list page that read its data would be cached as 'Loading properties...' (it was).
it('renders pages asked for at the same moment each with its own data', async () => {
  const properties = seededPublicProperties();
  const [list, home, team] = await Promise.all([
    renderPage(request('/properties', properties)),
    renderPage(request('/', properties)),
    renderPage(request('/management-team', null)),
  ]);
  const first = properties.find((property) => property.status === 'active' && property.type === 'residential');
  expect(first).toBeDefined();
  expect(list.root).toContain(first?.name);
  expect(list.root).not.toContain('Loading properties');
  expect(home.root).toContain('Proven Track Record');
  expect(team.root).toContain('Management Team');
  expect(team.head).not.toContain(first?.name ?? '');
});
