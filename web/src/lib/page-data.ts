import type { PublicProperty } from '@everest/core/contract';

/**
 * What the server puts into a page's HTML besides the markup (`<script type="application/json"
 * id="page-data">`): the settings the browser needs from the server, and the property list the
 * page was rendered with, so that hydration renders the same and fetches nothing again.
 */
export interface PageData {
  /** The HTML holds the page's markup, rendered by the server: the browser hydrates it. */
  serverRendered?: boolean;
  /** The map tiles' address template (the server's TILE_URL). */
  tileUrl?: string;
  /** GET /api/properties as the server rendered it (pages that show properties only). */
  properties?: PublicProperty[];
}

export const pageDataElementId = 'page-data';

/** The react-query key of GET /api/properties, which the embedded list seeds. */
export const propertiesQueryKey = ['properties'] as const;

let current: PageData | undefined;

/** The page's embedded data: read once from the document in the browser, set by the server's render. */
export function pageData(): PageData {
  if (current) return current;
  const text = typeof document === 'undefined' ? null : document.getElementById(pageDataElementId)?.textContent;
  current = text ? (JSON.parse(text) as PageData) : {};
  return current;
}

/** The server's render sets what its page embeds before rendering it (entry-server.tsx). */
export function setPageData(data: PageData): void {
  current = data;
}

/**
 * The data as a script element's text: `<` escaped, so that no string in it (a property name
 * typed by an administrator) can close the script element.
 */
export function pageDataScript(data: PageData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${pageDataElementId}">${json}</script>`;
}
