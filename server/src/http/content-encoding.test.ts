import { describe, expect, it } from 'vitest';
import { encodingFor } from './content-encoding';

describe('the encoding of an answer compressed in advance', () => {
  it('is brotli for a browser, gzip for a gzip-only client and identity without the header', () => {
    expect(encodingFor('gzip, deflate, br, zstd')).toBe('br');
    expect(encodingFor('gzip, deflate')).toBe('gzip');
    expect(encodingFor(undefined)).toBe('identity');
    expect(encodingFor('')).toBe('identity');
  });

  it('follows the client’s q-values, and answers gzip to `*` as koa-compress does', () => {
    expect(encodingFor('br;q=0.1, gzip;q=0.8')).toBe('gzip');
    expect(encodingFor('br;q=0, gzip;q=0')).toBe('identity');
    expect(encodingFor('*')).toBe('gzip');
  });

  it('answers uncompressed when the client accepts nothing we keep', () => {
    expect(encodingFor('deflate')).toBe('identity');
    expect(encodingFor('identity;q=0')).toBe('identity');
  });

  it('decides the same for a header value seen many times as for its first', () => {
    for (let i = 0; i < 3; i++) expect(encodingFor('gzip;q=1.0, br;q=0.9')).toBe('gzip');
  });
});
