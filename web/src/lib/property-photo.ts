import type { ImageVariant, PhotoFormat } from '@everest/core/contract';

/**
 * The `srcset` of a property photo's web-sized copies in one format ('/media/….avif 480w, …'), so
 * that a phone fetches the 480 px copy and not the largest; undefined for a photo without copies
 * in that format (a seeded SVG, an upload from before the format), which is shown by its `image`
 * path alone, or by its other format.
 */
export function photoSrcSet(variants: readonly ImageVariant[] | null | undefined, format: PhotoFormat): string | undefined {
  const copies = variants?.filter((v) => v.type === format) ?? [];
  if (copies.length === 0) return undefined;
  return copies.map((v) => `${encodeURI(v.url)} ${v.width}w`).join(', ');
}
