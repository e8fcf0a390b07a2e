import type { Theme } from '@fluentui/react-components';

export { accentGold, everestBrand } from './brand';

/**
 * The site's two Fluent themes, computed at build time by build/themes.ts into themes.json (the
 * light theme on the brand ramp, and the navy one of the navigation bar, its menus, the mobile
 * panel and the footer), so that a visitor's browser neither builds them nor downloads Fluent's
 * palettes.
 */
export interface SiteThemes {
  light: Theme;
  nav: Theme;
}

let current: SiteThemes | undefined;

/** The themes, set before the first render: by `loadSiteThemes` in the browser, `setSiteThemes` elsewhere. */
export function siteThemes(): SiteThemes {
  if (!current) throw new Error('The site themes were read before they were set (lib/theme.ts).');
  return current;
}

/** The server's render and the tests set the themes from themes.json. */
export function setSiteThemes(themes: SiteThemes): void {
  current = themes;
}

/**
 * The browser's themes, before its first render. A page the server rendered already carries both
 * as the CSS variables of its providers' style elements, so they are read back from there rather
 * than sent again in the entry chunk (7 KB of its gzip); the portal and the dev server,
 * whose HTML has no rendered page, load themes.json.
 */
export async function loadSiteThemes(page: Document = document): Promise<void> {
  const light = renderedTheme(page, page.querySelector('#root .fui-FluentProvider'));
  const nav = renderedTheme(page, page.querySelector('#root header .fui-FluentProvider'));
  if (light && nav) setSiteThemes({ light, nav });
  else setSiteThemes((await import('./themes.json')).default);
}

/**
 * The theme a rendered FluentProvider declares: its class `fui-FluentProvider<id>` names the style
 * element whose rule lists every token as `--name: value;` (Fluent's createCSSRuleFromTheme, which
 * lets no value hold `;`, `{` or `}`). The values come back as text, as the rule wrote them, which
 * is all a theme is used for: FluentProvider writes the same rule from it.
 */
function renderedTheme(page: Document, provider: Element | null): Theme | null {
  const id = [...(provider?.classList ?? [])].find((name) => name.startsWith('fui-FluentProvider') && name !== 'fui-FluentProvider');
  const rule = id ? page.getElementById(id)?.textContent : undefined;
  if (!rule) return null;
  const theme: Record<string, string> = {};
  for (const declaration of rule.slice(rule.indexOf('{') + 1, rule.lastIndexOf('}')).split(';')) {
    const colon = declaration.indexOf(':');
    const name = declaration.slice(0, colon).trim();
    if (colon > 0 && name.startsWith('--')) theme[name.slice(2)] = declaration.slice(colon + 1).trim();
  }
  return Object.keys(theme).length > 0 ? (theme as unknown as Theme) : null;
}
