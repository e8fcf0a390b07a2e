import { z } from 'zod';

// The admin panel calls the server's `/api` routes at the server's root, so an address
// is kept as its origin only: a path, query or fragment would be silently ignored.
export const serverUrlSchema = z.string().transform((value, ctx) => {
  const message = 'Enter the server address as http:// or https:// and a host name, for example https://portal.example.com.';
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }
  const hasOnlyOrigin = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!['http:', 'https:'].includes(url.protocol) || !hasOnlyOrigin) {
    ctx.addIssue({ code: 'custom', message });
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
