import { useState } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ImageVariant } from '@everest/core/contract';
import { photoSrcSet } from '../../../lib/property-photo';
import { failedImageRef } from '../../../components/ui/image-failure';

const useStyles = makeStyles({
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
 * How wide a card's photo shows, for the browser's choice among the web-sized copies: the list
 * and the map's cards sit in grids of columns at least 260-280 px wide, inside 1200 px.
 */
export const propertyCardImageSizes = '(min-width: 1200px) 300px, (min-width: 900px) 33vw, (min-width: 600px) 50vw, 100vw';

export interface PropertyImageProps {
  src: string | null;
  /** The photo's web-sized copies, offered through `srcset`; null for a photo without any. */
  variants?: readonly ImageVariant[] | null;
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
export function PropertyImage({ src, variants, lazy, priority = false, className }: PropertyImageProps) {
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
  return (
    <img
      src={src}
      srcSet={photoSrcSet(variants)}
      sizes={variants?.length ? propertyCardImageSizes : undefined}
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
}
