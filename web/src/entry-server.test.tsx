// @vitest-environment node
import { createCSSRuleFromTheme } from '@fluentui/react-components';
import { Window } from 'happy-dom';
import { expect, it } from 'vitest';
import { renderPage, type PageRequest } from './entry-server';
import { loadSiteThemes, setSiteThemes, siteThemes } from './lib/theme';
import themes from './lib/themes.json';
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

// The browser's entry chunk has no themes: it reads them back from the page (lib/theme.ts).
it('writes both themes into a page, from which the browser reads back the same CSS variables', async () => {
  const page = await renderPage(request('/', seededPublicProperties()));
  const window = new Window();
  window.document.head.innerHTML = page.head;
  window.document.body.innerHTML = `<div id="root">${page.root}</div>`;
  try {
    await loadSiteThemes(window.document as unknown as Document);
    const read = siteThemes();
    // Read from the page, not loaded from themes.json (which the page has no need of).
    expect(read.light).not.toBe(themes.light);
    expect(read.nav).not.toBe(themes.nav);
    // What FluentProvider writes from them in the browser is what the server wrote.
    expect(createCSSRuleFromTheme('.provider', read.light)).toBe(createCSSRuleFromTheme('.provider', themes.light));
    expect(createCSSRuleFromTheme('.provider', read.nav)).toBe(createCSSRuleFromTheme('.provider', themes.nav));
  } finally {
    setSiteThemes(themes);
    await window.happyDOM.close();
  }
});
