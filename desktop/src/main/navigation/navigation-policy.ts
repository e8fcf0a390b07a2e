import { isAbsolute, relative, resolve, sep } from 'node:path';
import { portalOriginProblem } from '../../shared/settings';

// The built renderer is served from a privileged custom scheme rather than file:// so
// that it has a real origin of its own: CSP 'self' means exactly the renderer's files,
// and the server can allow this one origin for CORS instead of the `null` origin.
export const appScheme = 'everest';
export const appOrigin = `${appScheme}://app`;
export const appEntryUrl = `${appOrigin}/index.html`;

/** Whether `url` belongs to the renderer loaded from `appUrl` (same scheme, host and port). */
export function isAppUrl(url: string, appUrl: string): boolean {
  const target = parseUrl(url);
  const app = parseUrl(appUrl);
  // Compared by hand: WHATWG `origin` is "null" for custom schemes.
  return !!target && !!app && target.protocol === app.protocol && target.host === app.host;
}

/**
 * What a link that asks for a new window does: a file of the API (a personal document's
 * Download) is downloaded through the app scheme, which adds the session; one of the portal's
 * pages (/instructions) opens on the server in the system browser; an https link opens there
 * too; anything else is refused. `shell.openExternal` is only ever given https, or the
 * configured portal's own origin (which the settings allow over http only on this computer).
 */
export type WindowOpenAction = { action: 'download'; url: string } | { action: 'external'; url: string } | { action: 'deny' };

export function windowOpenAction(url: string, serverUrl: string): WindowOpenAction {
  const target = parseUrl(url);
  if (!target) return { action: 'deny' };
  if (`${target.protocol}//${target.host}` === appOrigin) {
    if (target.pathname.startsWith('/api/')) return { action: 'download', url: target.toString() };
    const page = `${serverUrl.replace(/\/+$/, '')}${target.pathname}${target.search}`;
    return isExternalLink(page, serverUrl) ? { action: 'external', url: page } : { action: 'deny' };
  }
  // The parsed form goes to the system, never the page's raw text (tabs, line breaks, odd case).
  return isExternalLink(url, serverUrl) ? { action: 'external', url: target.href } : { action: 'deny' };
}

/**
 * Links that leave the app, for the system browser: https ones, and the configured portal's own
 * pages (`http://localhost:3000/instructions` when the portal runs on this computer).
 */
export function isExternalLink(url: string, serverUrl: string): boolean {
  const target = parseUrl(url);
  if (!target) return false;
  if (target.protocol === 'https:') return true;
  const portal = parseUrl(serverUrl);
  return !!portal && portalOriginProblem(portal) === null && target.origin === portal.origin;
}

/**
 * What the window does when it is about to go to `url`: stay (the app's own files), or not
 * (the navigation is cancelled). Only a link the page follows in its main frame (`will-navigate`)
 * is handed to the system browser, by the rule of `windowOpenAction`; a subframe
 * (`will-frame-navigate`) or a server's redirect (`will-redirect`) never opens anything: neither
 * is what the user clicked.
 */
export type NavigationKind = 'navigate' | 'frame-navigate' | 'redirect';
export type NavigationAction = { action: 'allow' } | { action: 'deny'; external?: string };

export function navigationAction(kind: NavigationKind, url: string, serverUrl: string, appUrl: string = appEntryUrl): NavigationAction {
  if (isAppUrl(url, appUrl)) return { action: 'allow' };
  if (kind !== 'navigate') return { action: 'deny' };
  const open = windowOpenAction(url, serverUrl);
  return open.action === 'external' ? { action: 'deny', external: open.url } : { action: 'deny' };
}

/**
 * Maps a request on the app scheme to a file inside the renderer's build folder, or null
 * for another host or any path that would leave that folder.
 */
export function resolveAppFile(rendererDirectory: string, requestUrl: string): string | null {
  const url = parseUrl(requestUrl);
  if (!url || `${url.protocol}//${url.host}` !== appOrigin) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const root = resolve(rendererDirectory);
  const file = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  const inside = relative(root, file);
  const outside = inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return outside ? null : file;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
