import { describe, expect, it } from 'vitest';
import type { ImageVariant } from '@everest/core/contract';
import { photoSrcSet } from './property-photo';

const copies: ImageVariant[] = [
  { url: '/media/aa.avif', width: 480, type: 'image/avif' },
  { url: '/media/bb.avif', width: 960, type: 'image/avif' },
  { url: '/media/cc.webp', width: 480, type: 'image/webp' },
  { url: '/media/dd.webp', width: 960, type: 'image/webp' },
  { url: '/media/ee.webp', width: 1600, type: 'image/webp' },
];

describe('photoSrcSet', () => {
  it("lists each copy of the format with its width, narrowest first as the server answers them", () => {
    expect(photoSrcSet(copies, 'image/avif')).toBe('/media/aa.avif 480w, /media/bb.avif 960w');
    expect(photoSrcSet(copies, 'image/webp')).toBe('/media/cc.webp 480w, /media/dd.webp 960w, /media/ee.webp 1600w');
  });

  it('gives nothing for a photo without copies in the format, which is shown otherwise', () => {
    expect(photoSrcSet(null, 'image/webp')).toBeUndefined();
    expect(photoSrcSet([], 'image/avif')).toBeUndefined();
    expect(photoSrcSet(copies.filter((v) => v.type === 'image/webp'), 'image/avif')).toBeUndefined();
  });
});
