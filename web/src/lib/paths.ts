// Routes match case-insensitively and ignore a trailing slash, as the router does.
export function normalizePath(pathname: string): string {
  const lower = pathname.toLowerCase();
  const trimmed = lower.length > 1 ? lower.replace(/\/+$/, '') : lower;
  return trimmed === '' ? '/' : trimmed;
}

export const isHomePath = (pathname: string) => normalizePath(pathname) === '/';
