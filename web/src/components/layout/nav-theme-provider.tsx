import type { ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { ThemeContext_unstable as ThemeContext } from '@fluentui/react-shared-contexts';
import { siteThemes } from '../../lib/theme';

/**
 * The navy theme of the navigation bar and the footer. The nav theme is a whole theme, so it
 * is not merged into the page's theme: nested in another provider, FluentProvider merges the
 * two into a new object on every render, and the new object makes it rebuild and re-insert its
 * rule of some 400 CSS variables (the header renders again on every navigation). Without a
 * parent theme it keeps the same object and its rule is built once.
 */
export function NavThemeProvider({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <ThemeContext.Provider value={undefined}>
      <FluentProvider theme={siteThemes().nav} className={className}>
        {children}
      </FluentProvider>
    </ThemeContext.Provider>
  );
}
