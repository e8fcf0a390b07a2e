import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { shareImagePath, shareImageSize } from '../src/app/share-image.ts';

const require = createRequire(import.meta.url);

/**
 * The picture of the site's link previews (Open Graph and Twitter cards, `src/app/page-head.ts`):
 * the hero's skyline with the firm's name, as a 1200 × 630 PNG at a fixed address. LinkedIn,
 * Slack, Facebook and most e-mail clients show no SVG, the format of every other picture here,
 * so the build draws one PNG from the hero (sharp), instead of a binary file in the repository.
 */
export function shareImage(): Plugin {
  return {
    name: 'everest-share-image',
    apply: 'build',
    async generateBundle() {
      const { width, height } = shareImageSize;
      const hero = readFileSync(require.resolve('@everest/fixtures/files/site/hero.svg'));
      const background = await sharp(hero).resize(width, height, { fit: 'cover' }).png().toBuffer();
      const title = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
          `<rect x="0" y="0" width="${width}" height="${height}" fill="#0d1521" fill-opacity="0.35"/>` +
          `<text x="600" y="290" text-anchor="middle" font-family="Segoe UI, Roboto, Helvetica, Arial, sans-serif" font-size="88" font-weight="700" fill="#ffffff">Everest Properties</text>` +
          `<text x="600" y="370" text-anchor="middle" font-family="Segoe UI, Roboto, Helvetica, Arial, sans-serif" font-size="38" fill="#f3e3b0">A Privately-Held, Real Estate Investment Firm</text>` +
          `</svg>`,
      );
      const source = await sharp(background)
        .composite([{ input: title }])
        .png({ compressionLevel: 9 })
        .toBuffer();
      this.emitFile({ type: 'asset', fileName: shareImagePath.slice(1), source });
    },
  };
}
