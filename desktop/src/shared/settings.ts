import { z } from 'zod';

/** Hosts where plain http:// never leaves this computer (a portal run with `pnpm start` here). */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export const portalAddressMessages = {
  invalid: 'Enter the server address as http:// or https:// and a host name, for example https://portal.example.com.',
  plainHttp:
    "Use https:// for a portal on another computer: over plain http:// your password, the session and every investor's document would cross the network unencrypted. http:// is accepted only for this computer (localhost, 127.0.0.1 or ::1).",
} as const;

/**
 * Why `url` cannot be the portal's address, or null when it can: https anywhere, plain http
 * only on this computer. The one rule for the settings and for the links the app opens.
 */
export function portalOriginProblem(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return loopbackHosts.has(url.hostname) ? null : portalAddressMessages.plainHttp;
  return portalAddressMessages.invalid;
}

// The admin panel calls the server's `/api` routes at the server's root, so an address
// is kept as its origin only: a path, query or fragment would be silently ignored.
export const serverUrlSchema = z.string().max(2000, portalAddressMessages.invalid).transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    ctx.addIssue({ code: 'custom', message: portalAddressMessages.invalid });
    return z.NEVER;
  }
  const hasOnlyOrigin = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  const problem = hasOnlyOrigin ? portalOriginProblem(url) : portalAddressMessages.invalid;
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return url.origin;
});

export const settingsSchema = z.object({
  serverUrl: serverUrlSchema,
  watchedFolder: z.string().min(1).nullable(),
});

export type Settings = z.output<typeof settingsSchema>;

// The server's own default address (`pnpm start`, PORT 3000).
export const defaultSettings: Settings = {
  serverUrl: 'http://localhost:3000',
  watchedFolder: null,
};
