import type { PagePath } from '@everest/core/contract';
import { pageContent } from '@everest/fixtures/page-content';
import { siteFacts } from '@everest/fixtures/site';
import { siteName, siteTagline } from '../hooks/use-document-title';
import { shareImagePath, shareImageSize } from './share-image';

/** A page's own entry in search results and link previews. */
interface PageHead {
  /** The page's name (its h1): the title is "<name> | Everest Properties". Home has none. */
  name?: string;
  description: string;
  /** The address search engines should list for this page; /portfolio is /properties. */
  canonical: PagePath;
  /** Kept out of search engines (the portal's sign-in). */
  noindex?: boolean;
}

const firmDescription =
  'Everest Properties is a privately held real estate investment firm that acquires, recapitalizes and manages residential, self-storage and retail properties.';

const propertiesHead: PageHead = {
  name: 'Our Property Portfolio',
  description: 'Apartment communities, self-storage facilities and retail centers that Everest Properties owns and manages today.',
  canonical: '/properties',
};

/**
 * Title, description and canonical address of each page. The names are the pages' h1 headings,
 * which `useDocumentTitle` also puts into the title after a navigation in the browser.
 */
export const pageHeads: Record<PagePath, PageHead> = {
  '/': { description: firmDescription, canonical: '/' },
  '/properties': propertiesHead,
  '/portfolio': propertiesHead,
  '/property-map': {
    name: 'Property Portfolio Map',
    description: 'A map of the apartment communities, self-storage facilities and retail centers of Everest Properties across the United States.',
    canonical: '/property-map',
  },
  '/management-team': {
    name: pageContent.managementTeam.heading,
    description: pageContent.managementTeam.intro,
    canonical: '/management-team',
  },
  '/significant-transactions': {
    name: pageContent.transactions.heading,
    description: 'Acquisitions, recapitalizations, refinancings and dispositions completed by Everest Properties since 1994.',
    canonical: '/significant-transactions',
  },
  '/competitive-advantage': {
    name: pageContent.competitiveAdvantage.heading,
    description: 'The experience, capital, legal team and lender relationships that let Everest Properties close complex real estate transactions.',
    canonical: '/competitive-advantage',
  },
  '/investor-services': {
    name: 'Investor Services',
    description: 'Sign in to the Everest Properties investor portal for your property and personal documents.',
    canonical: '/investor-services',
    noindex: true,
  },
  '/instructions': {
    name: 'Bulk Document Upload Instructions',
    description: 'How administrators of Everest Properties prepare a quarter folder of documents for the bulk upload.',
    canonical: '/instructions',
  },
  '/bulk-user-import-instructions': {
    name: 'Bulk User Import Instructions',
    description: 'How administrators of Everest Properties prepare a CSV file of investors for the bulk user import.',
    canonical: '/bulk-user-import-instructions',
  },
};

const notFoundHead = { name: 'Page Not Found', description: 'The page you are looking for does not exist or has moved.' };

/** The title a page's HTML carries; the browser keeps it (useDocumentTitle sets the same). */
export const titleOf = (name?: string) => (name ? `${name} | ${siteName}` : `${siteName} | ${siteTagline}`);

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** schema.org's Organization for the firm, with the corporate office's address (home page only). */
function organizationJsonLd(publicUrl: string): string {
  const { office } = siteFacts;
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: siteFacts.firmName,
    description: firmDescription,
    url: `${publicUrl}/`,
    logo: `${publicUrl}${shareImagePath}`,
    telephone: office.phone,
    faxNumber: office.fax,
    email: siteFacts.departments[0]?.email,
    address: {
      '@type': 'PostalAddress',
      streetAddress: office.street,
      addressLocality: office.city,
      addressRegion: office.state,
      postalCode: office.zipCode,
      addressCountry: 'US',
    },
  };
  const json = JSON.stringify(organization).replace(/</g, '\\u003c');
  return `<script type="application/ld+json">${json}</script>`;
}

/**
 * The tags of a page's `<head>` that are its own: title, description, canonical address, Open
 * Graph and Twitter card, robots, and the firm's JSON-LD on the home page. `page` null is the
 * 404 page, which has no canonical address and is not indexed.
 */
export function pageHeadTags(page: PagePath | null, publicUrl: string): string {
  const head = page ? pageHeads[page] : notFoundHead;
  const title = titleOf(head.name);
  const tags: [string, string][] = [];
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    tags.push([key, `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`]);
  const lines = [`<title>${escapeHtml(title)}</title>`];
  meta('name', 'description', head.description);
  const indexed = page !== null && !pageHeads[page].noindex;
  if (!indexed) meta('name', 'robots', 'noindex');
  const url = page ? `${publicUrl}${pageHeads[page].canonical}` : undefined;
  if (url && indexed) lines.push(`<link rel="canonical" href="${escapeHtml(url)}">`);
  const image = `${publicUrl}${shareImagePath}`;
  meta('property', 'og:type', 'website');
  meta('property', 'og:site_name', siteName);
  meta('property', 'og:title', title);
  meta('property', 'og:description', head.description);
  if (url) meta('property', 'og:url', url);
  meta('property', 'og:image', image);
  meta('property', 'og:image:width', String(shareImageSize.width));
  meta('property', 'og:image:height', String(shareImageSize.height));
  meta('property', 'og:image:alt', `${siteName}, ${siteTagline}`);
  meta('name', 'twitter:card', 'summary_large_image');
  meta('name', 'twitter:title', title);
  meta('name', 'twitter:description', head.description);
  meta('name', 'twitter:image', image);
  lines.push(...tags.map(([, tag]) => tag));
  if (page === '/') lines.push(organizationJsonLd(publicUrl));
  return lines.join('\n    ');
}
