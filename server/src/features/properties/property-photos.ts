import { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { photoFormats, type ImageVariant, type PhotoFormat } from '@everest/core/contract';
import { maxImageBytes, portalMessages } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { UploadRule } from '../../http/multipart';
import type { FileStore, ReceivedFile, StoredBlob } from '../files/file-store';
import { photoTypes } from '../files/sniff';

/**
 * The widths of the web-sized copies: a laptop's card, a phone's card (about 365 px wide at 1.75x
 * to 2x), a laptop's card or detail card at 2x, and a wide screen at 2x. A photo narrower than a
 * width gets no copy of it: nothing is upscaled.
 */
export const photoWidths: readonly number[] = [480, 720, 960, 1600];
const widestPhoto = Math.max(...photoWidths);

/**
 * Pixels a photo may have before it is decoded. A 10 MB file can declare a picture of billions of
 * pixels (a decompression bomb); 100 megapixels is above any phone's or camera's photo.
 */
const maxPhotoPixels = 100_000_000;

/**
 * How each format is written. WebP at 75, libwebp's default and what Google's guidance suggests
 * for photos (a phone's card copy of a camera photo is about 15% lighter than at 80, with no
 * difference seen at card size). AVIF at 50, sharp's default, about a third lighter again, at its
 * fastest effort: effort 4 would save another 10 to 30% but takes 11 s a photo on this machine
 * against 0.6 s, and an upload answers once its copies are made.
 */
const encoders: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  'image/avif': (image) => image.avif({ quality: 50, effort: 0 }),
  'image/webp': (image) => image.webp({ quality: 75 }),
};

const extensions: Record<PhotoFormat, string> = { 'image/avif': 'avif', 'image/webp': 'webp' };

// Each photo is read once: libvips' operation cache would only hold memory for nothing.
sharp.cache(false);

/** How update-property takes its photo: by content, under 10 MB, checked while it streams. */
export function photoUpload(store: FileStore): UploadRule {
  return {
    field: 'image',
    store,
    maxBytes: maxImageBytes,
    accept: photoTypes,
    tooLargeMessage: `${portalMessages.imageTooLarge}.`,
    wrongTypeMessage: `${portalMessages.invalidFileType}: a property photo must be a JPEG, PNG, WebP or GIF image.`,
  };
}

/** The widths to make for a photo this wide, narrowest first. */
export function variantWidths(width: number): number[] {
  const widths = photoWidths.filter((w) => w < width);
  const largest = Math.min(width, widestPhoto);
  return widths.includes(largest) ? widths : [...widths, largest];
}

export interface PhotoVariant extends StoredBlob {
  width: number;
  type: PhotoFormat;
}

/**
 * Makes the web-sized copies of an uploaded photo and puts them in the store: AVIF and WebP at
 * each width (`photoFormats`' order, narrowest first in each), turned upright by its EXIF
 * orientation, with every piece of metadata (GPS position, camera, dates) left out, since sharp
 * writes none unless told to. The upload itself is never stored: what the
 * site serves is only what was re-encoded here.
 */
export async function storePhotoVariants(upload: ReceivedFile, store: FileStore): Promise<PhotoVariant[]> {
  const open = () => sharp(upload.path, { autoOrient: true, limitInputPixels: maxPhotoPixels, failOn: 'error' });
  let width: number;
  try {
    width = (await open().metadata()).autoOrient.width;
  } catch (error) {
    throw unreadable(error);
  }

  const variants: PhotoVariant[] = [];
  // One at a time: the machine's few cores and its memory are shared with every other request.
  for (const type of photoFormats) {
    for (const target of variantWidths(width)) {
      let bytes: Buffer;
      try {
        bytes = await encoders[type](open().resize({ width: target, withoutEnlargement: true })).toBuffer();
      } catch (error) {
        throw unreadable(error);
      }
      const blob = await store.put(Readable.from([bytes]), {
        maxBytes: maxImageBytes,
        accept: [type],
        tooLargeMessage: 'A web-sized copy of the photo came out too large.',
        wrongTypeMessage: `A web-sized copy of the photo is not a ${extensions[type].toUpperCase()} image.`,
      });
      variants.push({ ...blob, width: target, type });
    }
  }
  return variants;
}

/** The public paths of the copies, for the property's `imageVariants`. */
export function variantUrls(variants: readonly PhotoVariant[]): ImageVariant[] {
  return variants.map((v) => ({ url: mediaPath(v.sha256, extensions[v.type]), width: v.width, type: v.type }));
}

export function mediaPath(sha256: string, extension: string): string {
  return `/media/${sha256}.${extension}`;
}

function unreadable(error: unknown): HttpError {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) {
    return new HttpError(413, `The photo is too large: it may have at most ${maxPhotoPixels / 1_000_000} megapixels.`);
  }
  return new HttpError(415, `${portalMessages.invalidFileType}: the photo could not be read as an image.`);
}
