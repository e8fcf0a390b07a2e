import { pageOf, routes, type RouteDef } from '@everest/core/contract';

/**
 * The pattern a request's path belongs to, for figures that must never hold raw paths (an id, a
 * reset link's token, a file name): a route of the table by its pattern
 * (`/api/investor/download/:id`), a page of the site by its path, the web app's files and the
 * photos as one pattern each, and anything else as `other`. Matched as the router matches: any
 * letter case, a trailing slash allowed.
 */
export class RoutePatterns {
  private readonly literal = new Map<string, string>();
  private readonly templated: { method: string; pattern: RegExp; path: string }[] = [];

  constructor() {
    for (const route of Object.values(routes) as RouteDef[]) {
      if (route.path.includes('/:')) {
        const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+');
        this.templated.push({ method: route.method, pattern: new RegExp(`^${source}/?$`, 'i'), path: route.path });
      } else {
        this.literal.set(`${route.method} ${route.path.toLowerCase()}`, route.path);
      }
    }
  }

  of(method: string, path: string): string {
    const asked = method === 'HEAD' ? 'GET' : method;
    const folded = (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase();
    const literal = this.literal.get(`${asked} ${folded}`);
    if (literal) return literal;
    if (folded.startsWith('/api/')) return this.templated.find((t) => t.method === asked && t.pattern.test(path))?.path ?? 'other';
    if (folded.startsWith('/assets/')) return '/assets/*';
    if (folded.startsWith('/media/')) return '/media/*';
    return pageOf(path) ?? 'other';
  }
}
