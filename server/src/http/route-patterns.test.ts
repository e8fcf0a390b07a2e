import { describe, expect, it } from 'vitest';
import { RoutePatterns } from './route-patterns';

describe('the route pattern of a request, for figures that hold no raw path', () => {
  const patterns = new RoutePatterns();

  it('names a route of the table by its pattern, as the router matches it', () => {
    expect(patterns.of('GET', '/api/investor/download/17')).toBe('/api/investor/download/:id');
    expect(patterns.of('GET', '/api/investor/validate-reset-token/a-secret-token')).toBe('/api/investor/validate-reset-token/:token');
    expect(patterns.of('GET', '/api/Properties/')).toBe('/api/properties');
    expect(patterns.of('HEAD', '/api/health')).toBe('/api/health');
    expect(patterns.of('POST', '/api/investor/login')).toBe('/api/investor/login');
  });

  it('names pages by their path, the built files and photos as one pattern each, and anything else "other"', () => {
    expect(patterns.of('GET', '/property-map')).toBe('/property-map');
    expect(patterns.of('GET', '/assets/index-4f3a.js')).toBe('/assets/*');
    expect(patterns.of('GET', '/media/photo-17-480.avif')).toBe('/media/*');
    expect(patterns.of('GET', '/wp-admin/setup-config.php')).toBe('other');
    expect(patterns.of('GET', '/api/no-such-call/17')).toBe('other');
    expect(patterns.of('DELETE', '/api/investor/login')).toBe('other');
  });
});
