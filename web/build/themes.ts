/**
 * The site's two Fluent themes, computed here once rather than in every visitor's browser:
 * `createLightTheme` and `createDarkTheme` spread Fluent's colour palettes into some 400 tokens
 * each, about 30 ms of a throttled phone's start-up, and the palettes weigh on the entry chunk.
 * `pnpm --filter @everest/web themes` writes them to src/lib/themes.json, which
 * src/lib/theme.ts serves; src/lib/theme.test.ts fails when the file and this code disagree.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDarkTheme, createLightTheme, type Theme } from '@fluentui/react-components';
import { everestBrand, everestFontFamily } from '../src/lib/brand.ts';

export function everestThemes(): { light: Theme; nav: Theme } {
  const light: Theme = { ...createLightTheme(everestBrand), fontFamilyBase: everestFontFamily };
  // The navigation bar, its menus and the mobile panel sit on navy, so they get a dark theme
  // whose surfaces are the brand's navy instead of Fluent's neutral greys.
  const nav: Theme = {
    ...createDarkTheme(everestBrand),
    fontFamilyBase: everestFontFamily,
    colorNeutralBackground1: everestBrand[20],
    colorNeutralBackground1Hover: everestBrand[40],
    colorNeutralBackground1Pressed: everestBrand[30],
    colorNeutralBackground1Selected: everestBrand[40],
    colorSubtleBackgroundHover: everestBrand[40],
    colorSubtleBackgroundPressed: everestBrand[30],
    colorSubtleBackgroundSelected: everestBrand[40],
    colorNeutralStroke1: everestBrand[60],
  };
  return { light, nav };
}

const themesFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/lib/themes.json');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(themesFile, `${JSON.stringify(everestThemes(), null, 2)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), themesFile)}`);
}
