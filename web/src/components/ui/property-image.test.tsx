import { cleanup, render } from '@testing-library/react';
import { FluentProvider } from '@fluentui/react-components';
import { afterEach, expect, it } from 'vitest';
import { everestTheme } from '../../testing/themes';
import { PropertyImage, propertyListImageSizes } from './property-image';

afterEach(cleanup);

const show = (ui: React.ReactElement) => render(<FluentProvider theme={everestTheme}>{ui}</FluentProvider>).container.querySelector('img');

it("offers an uploaded photo's AVIF copies to the browsers that read them, its WebP ones otherwise, the widest WebP as src", () => {
  const variants = [
    { url: '/media/aa.avif', width: 480, type: 'image/avif' },
    { url: '/media/bb.avif', width: 960, type: 'image/avif' },
    { url: '/media/cc.webp', width: 480, type: 'image/webp' },
    { url: '/media/dd.webp', width: 960, type: 'image/webp' },
  ] as const;
  const img = show(<PropertyImage src="/media/dd.webp" variants={variants} sizes={propertyListImageSizes} lazy />);
  const source = img?.parentElement?.querySelector('source');
  expect(img?.parentElement?.tagName).toBe('PICTURE');
  expect(source?.getAttribute('type')).toBe('image/avif');
  expect(source?.getAttribute('srcset')).toBe('/media/aa.avif 480w, /media/bb.avif 960w');
  expect(source?.getAttribute('sizes')).toBe(propertyListImageSizes);
  expect(img?.getAttribute('src')).toBe('/media/dd.webp');
  expect(img?.getAttribute('srcset')).toBe('/media/cc.webp 480w, /media/dd.webp 960w');
  expect(img?.getAttribute('sizes')).toBe(propertyListImageSizes);
  expect(img?.getAttribute('width')).toBe('800');
});

it('offers the WebP copies alone for a photo uploaded before the AVIF ones', () => {
  const variants = [{ url: '/media/cc.webp', width: 480, type: 'image/webp' }] as const;
  const img = show(<PropertyImage src="/media/cc.webp" variants={variants} sizes={propertyListImageSizes} lazy />);
  expect(img?.parentElement?.tagName).not.toBe('PICTURE');
  expect(img?.getAttribute('srcset')).toBe('/media/cc.webp 480w');
});

it('shows a photo without copies (a seeded SVG) by its path alone', () => {
  const img = show(<PropertyImage src="/media/dd.svg" variants={null} sizes={propertyListImageSizes} lazy={false} />);
  expect(img?.getAttribute('src')).toBe('/media/dd.svg');
  expect(img?.hasAttribute('srcset')).toBe(false);
  expect(img?.hasAttribute('sizes')).toBe(false);
});
