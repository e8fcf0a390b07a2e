import { pageData } from '../../lib/page-data';

/**
 * A ref for an `<img>` that the server's HTML may hold: such an image can fail before the page
 * is hydrated, and its error event then fired before React listened to it (onError never runs).
 * The element says so itself: complete, but without a picture. `onFailed` runs then, as onError
 * would have. (Only on a page the server rendered: elsewhere onError sees every failure.)
 */
export function failedImageRef(onFailed: () => void): (image: HTMLImageElement | null) => void {
  return (image) => {
    if (pageData().serverRendered && image?.complete && image.naturalWidth === 0) onFailed();
  };
}
