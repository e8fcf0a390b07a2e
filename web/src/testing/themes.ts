import { setSiteThemes } from '../lib/theme';
import themes from '../lib/themes.json';

// The themes as the server's render sets them; the browser reads them back from a rendered page
// (lib/theme.ts). Imported by every test that renders the site's or the admin panel's providers.
setSiteThemes(themes);

export const everestTheme = themes.light;
export const everestNavTheme = themes.nav;
