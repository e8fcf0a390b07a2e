import type { ImageVariant } from '@everest/core/contract';

/**
 * The `srcset` of a property photo's web-sized copies ('/media/….webp 480w, …'), so that a phone
 * fetches the 480 px copy and not the largest; undefined for a photo without copies (a seeded
 * SVG, an older upload), which is shown by its `image` path alone.
 */
export function photoSrcSet(variants: readonly ImageVariant[] | null | undefined): string | undefined {
  if (!variants || variants.length === 0) return undefined;
  return variants.map((v) => `${encodeURI(v.url)} ${v.width}w`).join(', ');
}
