import { describe, expect, it } from 'vitest';
import { photoSrcSet } from './property-photo';

describe('photoSrcSet', () => {
  it('lists each copy with its width, narrowest first as the server answers them', () => {
    expect(
      photoSrcSet([
        { url: '/media/aa.webp', width: 480 },
        { url: '/media/bb.webp', width: 960 },
        { url: '/media/cc.webp', width: 1600 },
      ]),
    ).toBe('/media/aa.webp 480w, /media/bb.webp 960w, /media/cc.webp 1600w');
  });

  it('gives nothing for a photo without copies, which is shown by its path alone', () => {
    expect(photoSrcSet(null)).toBeUndefined();
    expect(photoSrcSet([])).toBeUndefined();
  });
});
