/**
 * The picture of link previews (Open Graph, Twitter): a PNG of the hero at a fixed address,
 * drawn by the build (build/share-image.ts). Plain data, so that the build can read it under Node.
 */
export const shareImagePath = '/share-image.png';
export const shareImageSize = { width: 1200, height: 630 };
