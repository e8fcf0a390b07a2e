/**
 * A ref for an `<img>` that the server's HTML may hold: such an image can fail before the page
 * is hydrated, and its error event then fired before React listened to it (onError never runs).
 * The element says so itself: complete, but without a picture. `onFailed` runs then, as onError
 * would have.
 */
export function failedImageRef(onFailed: () => void): (image: HTMLImageElement | null) => void {
  return (image) => {
    if (image?.complete && image.naturalWidth === 0) onFailed();
  };
}
