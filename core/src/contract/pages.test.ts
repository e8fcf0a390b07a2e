import { describe, expect, it } from 'vitest';
import { pageOf, pagePaths } from './pages';

describe('pageOf', () => {
  it('finds every page of the spec by its own path', () => {
    for (const page of pagePaths) expect(pageOf(page)).toBe(page);
  });

  it('matches as the web router does: any letter case, trailing slashes dropped', () => {
    expect(pageOf('/Properties')).toBe('/properties');
    expect(pageOf('/PROPERTY-MAP/')).toBe('/property-map');
    expect(pageOf('/investor-services//')).toBe('/investor-services');
    expect(pageOf('//')).toBe('/');
  });

  it('finds no page for other paths', () => {
    for (const path of ['/propertie', '/properties/1', '/management-tem', '/api/properties', '']) expect(pageOf(path)).toBeNull();
  });
});
