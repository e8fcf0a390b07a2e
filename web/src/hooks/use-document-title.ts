import { useEffect } from 'react';

export const siteName = 'Everest Properties';
export const siteTagline = 'A Privately-Held, Real Estate Investment Firm';

/** Sets the tab title to "<page> | Everest Properties"; the home page passes no page name. */
export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = page ? `${page} | ${siteName}` : `${siteName} | ${siteTagline}`;
  }, [page]);
}
