import { describe, expect, it } from 'vitest';
import { fillPath, pathFor } from './paths';
import { routes } from './routes';

describe('pathFor', () => {
  it('fills :param segments', () => {
    expect(pathFor(routes.download, { id: 7 })).toBe('/api/investor/download/7');
    expect(pathFor(routes.replaceDocument, { documentId: '12' })).toBe('/api/admin/replace-document/12');
  });

  it('URL-encodes the values', () => {
    expect(pathFor(routes.validateResetToken, { token: 'a/b c?d' })).toBe(
      '/api/investor/validate-reset-token/a%2Fb%20c%3Fd',
    );
  });

  it('leaves a path without params as it is', () => {
    expect(pathFor(routes.listProperties)).toBe('/api/properties');
  });

  it('refuses to build a path with a missing parameter', () => {
    expect(() => fillPath(routes.adminProperty.path, {})).toThrow(/needs the parameter 'id'/);
  });
});
