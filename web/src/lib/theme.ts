import type { Theme } from '@fluentui/react-components';
import themes from './themes.json';

export { accentGold, everestBrand } from './brand';

// Computed at build time by build/themes.ts (Fluent's light and dark themes on the brand ramp),
// so that a visitor's browser neither builds them nor downloads Fluent's palettes.
export const everestTheme: Theme = themes.light;

/** The navigation bar, its menus, the mobile panel and the footer: navy surfaces. */
export const everestNavTheme: Theme = themes.nav;
