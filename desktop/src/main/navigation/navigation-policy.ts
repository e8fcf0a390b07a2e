import { isAbsolute, relative, resolve, sep } from 'node:path';

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
 * too; anything else is refused. `shell.openExternal` is only ever given https.
 */
export type WindowOpenAction = { action: 'download'; url: string } | { action: 'external'; url: string } | { action: 'deny' };

export function windowOpenAction(url: string, serverUrl: string): WindowOpenAction {
  const target = parseUrl(url);
  if (!target) return { action: 'deny' };
  if (`${target.protocol}//${target.host}` === appOrigin) {
    if (target.pathname.startsWith('/api/')) return { action: 'download', url: target.toString() };
    const page = `${serverUrl.replace(/\/+$/, '')}${target.pathname}${target.search}`;
    return isExternalLink(page) ? { action: 'external', url: page } : { action: 'deny' };
  }
  return isExternalLink(url) ? { action: 'external', url } : { action: 'deny' };
}

/** Only https links leave the app, and they open in the system browser. */
export function isExternalLink(url: string): boolean {
  return parseUrl(url)?.protocol === 'https:';
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
