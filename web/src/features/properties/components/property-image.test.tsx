import { cleanup, render } from '@testing-library/react';
import { FluentProvider } from '@fluentui/react-components';
import { afterEach, expect, it } from 'vitest';
import { everestTheme } from '../../../lib/theme';
import { PropertyImage, propertyListImageSizes } from './property-image';

afterEach(cleanup);

const show = (ui: React.ReactElement) => render(<FluentProvider theme={everestTheme}>{ui}</FluentProvider>).container.querySelector('img');

it("offers an uploaded photo's web-sized copies through srcset and sizes, the largest as src", () => {
  const variants = [
    { url: '/media/aa.webp', width: 480 },
    { url: '/media/bb.webp', width: 960 },
    { url: '/media/cc.webp', width: 1600 },
  ];
  const img = show(<PropertyImage src="/media/cc.webp" variants={variants} sizes={propertyListImageSizes} lazy />);
  expect(img?.getAttribute('src')).toBe('/media/cc.webp');
  expect(img?.getAttribute('srcset')).toBe('/media/aa.webp 480w, /media/bb.webp 960w, /media/cc.webp 1600w');
  expect(img?.getAttribute('sizes')).toBe(propertyListImageSizes);
  expect(img?.getAttribute('width')).toBe('800');
});

it('shows a photo without copies (a seeded SVG) by its path alone', () => {
  const img = show(<PropertyImage src="/media/dd.svg" variants={null} sizes={propertyListImageSizes} lazy={false} />);
  expect(img?.getAttribute('src')).toBe('/media/dd.svg');
  expect(img?.hasAttribute('srcset')).toBe(false);
  expect(img?.hasAttribute('sizes')).toBe(false);
});
