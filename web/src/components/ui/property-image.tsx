import { useState } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ImageVariant } from '@everest/core/contract';
import { photoSrcSet } from '../../lib/property-photo';
import { failedImageRef } from './image-failure';

const useStyles = makeStyles({
  // The img inside lays out as if the picture were not there.
  picture: { display: 'contents' },
  image: {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: '8 / 5',
    objectFit: 'cover',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  placeholder: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '100%',
    aspectRatio: '8 / 5',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
  },
});

// The seeded photos are 800 × 500; an uploaded photo of another shape is cropped to the same
// frame, so that the cards of a row line up and the page does not shift while images arrive.
export const propertyImageSize = { width: 800, height: 500 } as const;

/**
 * How wide a photo of the list's cards shows, for the browser's choice among the web-sized
 * copies. The list's grid (properties-page.tsx) has columns at least 280 px wide with 20 px gaps,
 * 47 px narrower than the window and 1168 px at most: one column below 627 px, two below 927 px,
 * three from there. A phone of 412 px at 1.75x thus takes the 720 px copy, not the 960 px one.
 */
export const propertyListImageSizes =
  '(min-width: 1215px) 376px, (min-width: 927px) calc((100vw - 87px) / 3), (min-width: 627px) calc((100vw - 67px) / 2), calc(100vw - 47px)';

/**
 * How wide the photo of the map's detail card shows: the card sits in the grid of its location's
 * properties, columns at least 260 px wide inside 1200 px.
 */
export const propertyDetailImageSizes = '(min-width: 1200px) 300px, (min-width: 900px) 33vw, (min-width: 600px) 50vw, 100vw';

export interface PropertyImageProps {
  src: string | null;
  /** The photo's web-sized copies (AVIF and WebP), offered through `srcset`; null for a photo without any. */
  variants?: readonly ImageVariant[] | null;
  /** How wide the photo shows at each window width (`sizes`), for the choice among the copies. */
  sizes: string;
  /** Below the fold the browser fetches the photo only when it comes near the viewport. */
  lazy: boolean;
  /** The first photo of a page is usually its largest paint: fetch it before the others. */
  priority?: boolean;
  className?: string;
}

/**
 * A property's photo; without one, or when it fails to load, a quiet placeholder of the same
 * size. Decorative (alt=""): the property's name is the heading right beside it.
 */
export function PropertyImage({ src, variants, sizes, lazy, priority = false, className }: PropertyImageProps) {
  const styles = useStyles();
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <div className={mergeClasses(styles.placeholder, className)} aria-hidden>
        <svg width={48} height={48} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.5}>
          <path d="M3 21h18M5 21V8l7-5 7 5v13M9 21v-6h6v6" />
        </svg>
      </div>
    );
  }
  const webp = photoSrcSet(variants, 'image/webp');
  const avif = photoSrcSet(variants, 'image/avif');
  const image = (
    <img
      src={src}
      srcSet={webp}
      sizes={webp ? sizes : undefined}
      alt=""
      width={propertyImageSize.width}
      height={propertyImageSize.height}
      loading={lazy ? 'lazy' : 'eager'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={mergeClasses(styles.image, className)}
      ref={failedImageRef(() => setFailedSrc(src))}
      onError={() => setFailedSrc(src)}
    />
  );
  if (!avif) return image;
  // The browser takes the AVIF copies if it reads AVIF, else the img's WebP ones.
  return (
    <picture className={styles.picture}>
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      {image}
    </picture>
  );
}
