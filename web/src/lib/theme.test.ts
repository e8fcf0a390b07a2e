import { describe, expect, it } from 'vitest';
import { everestThemes } from '../../build/themes';
import { everestBrand } from './brand';
import { everestNavTheme, everestTheme } from '../testing/themes';

describe('the prebuilt themes', () => {
  // themes.json is written by `pnpm --filter @everest/web themes`; a change of brand colours or
  // of Fluent's theme functions without running it again fails here.
  it('are exactly what build/themes.ts makes from the brand now', () => {
    const made = everestThemes();
    expect(everestTheme).toEqual(made.light);
    expect(everestNavTheme).toEqual(made.nav);
  });

  it('put the navigation on the brand navy, in the brand font stack', () => {
    expect(everestTheme.colorBrandBackground).toBe(everestBrand[80]);
    expect(everestNavTheme.colorNeutralBackground1).toBe(everestBrand[20]);
    expect(everestNavTheme.fontFamilyBase).toBe(everestTheme.fontFamilyBase);
    expect(everestTheme.fontFamilyBase).toMatch(/^'Segoe UI'/);
  });
});
